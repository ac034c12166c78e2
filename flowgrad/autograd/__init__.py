"""The framework-neutral autograd core: graph, engine, grad modes, policies, Function, functional,
gradcheck and DOT export. Facades expose it under their own names."""
