"""The scenario catalogue, one module per group (see `conformance.scenario.GROUPS`).

Every module registers its scenarios on import; `conformance.scenario.load_all()` imports them all.
"""
