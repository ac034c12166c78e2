"""Cross-framework autograd conformance: one catalogue of scenarios, run on flowgrad's facades
(`flowgrad.torch`, `flowgrad.oneflow`, `flowgrad.paddle`) and on the real frameworks where they are
installed, showing where they agree and where, and why, they differ.

Layout: `adapters/` (one framework-neutral API per implementation), `scenario.py` (the registry),
`scenarios/` (the catalogue), `expect.py` (expected differences as data), `known_defects.py`
(facade findings), `observe.py` / `compare.py` / `verdict.py` (observation, comparison, verdict),
`worker.py` (real frameworks in worker processes), `runner.py`, the reports and `cli.py`.
"""
