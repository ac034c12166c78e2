"""Messages of optimizers and learning-rate schedulers (flowgrad/optim)."""

_ORDER_URL = "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"

MESSAGES: dict[str, tuple[type, str]] = {
    # optim/named_state.py: a named (paddle-layout) state dict that lacks an accumulator
    "optim_accumulator_missing": (AssertionError, "optimizer Tensor {name} not found"),
    "optim_accumulator_unset": (AssertionError, "Optimizer set error, {name} should in state dict"),
    # Optimizer: parameters and groups (flowgrad/optim/optimizer.py)
    "optim_params_tensor": (TypeError, "params argument given to the optimizer should be an iterable of Tensors or "
                                       "dicts, but got {type}"),
    "optim_empty": (ValueError, "optimizer got an empty parameter list"),
    "optim_group_type": (TypeError, "param_group must be a dict, but got {type}"),
    "optim_params_set": (TypeError, "optimizer parameters need to be organized in ordered collections, but the "
                                    "ordering of tensors in sets will change between runs. Please use a list "
                                    "instead."),
    "optim_names_partial": (ValueError, "all optimizer params should be with/without names. Some param names are "
                                        "missing"),
    "optim_not_tensor": (TypeError, "optimizer can only optimize Tensors, but one of the params is {type}"),
    "optim_nonleaf": (ValueError, "can't optimize a non-leaf Tensor"),
    "optim_required": (ValueError, "parameter group didn't specify a value of required optimization parameter "
                                   "{name}"),
    "optim_duplicate_params": (UserWarning, "optimizer contains a parameter group with duplicate parameters; in "
                                            "future, this will cause an error; see "
                                            "github.com/pytorch/pytorch/issues/40967 for more information"),
    "optim_group_names": (ValueError, "all optimizer param groups should be with/without names. cannot add param "
                                      "group {which} names to the optimizer"),
    "optim_param_in_two_groups": (ValueError, "some parameters appear in more than one parameter group"),
    "optim_step_pre_hook_result": (RuntimeError, "{func} must return None or a tuple of (new_args, new_kwargs), but "
                                                 "got {result}."),
    "optim_load_group_count": (ValueError, "loaded state dict has a different number of parameter groups"),
    "optim_load_group_size": (ValueError, "loaded state dict contains a parameter group that doesn't match the size "
                                          "of optimizer's group"),
    # hyper-parameters (sgd.py, adam.py, rmsprop.py, adagrad.py, adadelta.py, nadam.py, radam.py, lbfgs.py)
    "optim_invalid_lr": (ValueError, "Invalid learning rate: {lr}"),
    "optim_invalid_momentum": (ValueError, "Invalid momentum value: {momentum}"),
    "optim_invalid_weight_decay": (ValueError, "Invalid weight_decay value: {weight_decay}"),
    "optim_invalid_eps": (ValueError, "Invalid epsilon value: {eps}"),
    "optim_invalid_beta": (ValueError, "Invalid beta parameter at index {index}: {beta}"),
    "optim_invalid_alpha": (ValueError, "Invalid alpha value: {alpha}"),
    "optim_invalid_lr_decay": (ValueError, "Invalid lr_decay value: {lr_decay}"),
    "optim_invalid_initial_accumulator": (ValueError, "Invalid initial_accumulator_value value: {value}"),
    "optim_nesterov": (ValueError, "Nesterov momentum requires a momentum and zero dampening"),
    "optim_invalid_rho": (ValueError, "Invalid rho value: {rho}"),
    "optim_invalid_etas": (ValueError, "Invalid eta values: {minus}, {plus}"),
    "optim_adafactor_lr": (ValueError, "Learning rate should be >= 0 but is: {lr}"),
    "optim_adafactor_beta2_decay": (ValueError, "beta2_decay should be <= 0 but is: {beta2_decay}"),
    "optim_adafactor_eps": (ValueError, "epsilon{index} should be >= 0 but is: {eps}"),
    "optim_adafactor_d": (ValueError, "Clipping threshold d should be >= 1 but is: {d}"),
    "optim_adafactor_complex": (RuntimeError, "Adafactor does not support complex parameters"),
    "optim_adafactor_weight_decay": (ValueError, "weight_decay should be >= 0 but is: {weight_decay}"),
    "optim_invalid_momentum_decay": (ValueError, "Invalid momentum_decay value: {momentum_decay}"),
    # lbfgs.py
    "optim_lbfgs_groups": (ValueError, "LBFGS doesn't support per-parameter options (parameter groups)"),
    "optim_lbfgs_group_count": (AssertionError, "Expected exactly one param_group, but got {count}"),
    "optim_lbfgs_line_search": (RuntimeError, "only 'strong_wolfe' is supported"),
    # learning-rate schedulers (flowgrad/optim/lr_scheduler.py)
    "sched_not_optimizer": (TypeError, "{type} is not an Optimizer"),
    "sched_initial_lr": (KeyError, "param 'initial_lr' is not specified in param_groups[{index}] when resuming "
                                   "scheduler with last_epoch >= 0.\nThis typically happens when:\n1. You're trying "
                                   "to resume training from a checkpoint but haven't properly loaded the optimizer "
                                   "state\n2. You're using last_epoch >= 0 for a fresh training run (not "
                                   "recommended)"),
    "sched_lambda_count": (ValueError, "Expected {expected} lr_lambdas, but got {got}"),
    "sched_lambda_callable": (TypeError, "lr_lambda should be a function, but got {type}"),
    "sched_constant_factor": (ValueError, "Constant multiplicative factor expected to be between 0 and 1."),
    "sched_linear_start": (ValueError, "Starting multiplicative factor expected to be greater than 0 and less or "
                                       "equal to 1."),
    "sched_linear_end": (ValueError, "Ending multiplicative factor expected to be between 0 and 1."),
    "sched_sequential_empty": (ValueError, "{cls} expects at least one scheduler, but got no scheduler."),
    "sched_sequential_no_optimizer": (TypeError, "{cls} at index {index} should have `optimizer` as its attribute."),
    "sched_sequential_plateau": (ValueError, "{cls} does not support `ReduceLROnPlateau` scheduler as it requires "
                                             "additional kwargs to be specified when calling `step`, but got one at "
                                             "index {index} in the given schedulers sequence."),
    "sched_sequential_optimizer": (ValueError, "{cls} expects all schedulers to belong to the same optimizer, but got "
                                               "scheduler {sched} at index {index} has {sched_optimizer}, which is "
                                               "different from {optimizer}."),
    "sched_sequential_milestones": (ValueError, "Sequential Schedulers expects number of schedulers provided to be one "
                                                "more than the number of milestone points, but got number of "
                                                "schedulers {schedulers} and the number of milestones to be equal to "
                                                "{milestones}"),
    "sched_chained_empty": (ValueError, "{cls} expects at least one scheduler to be chained, but got no scheduler."),
    # lr_cycles.py
    "sched_param_length": (ValueError, "{name} must have the same length as optimizer.param_groups. {name} has {got} "
                                       "values, param_groups has {groups}."),
    "sched_cycle_momentum": (ValueError, "optimizer must support momentum or beta1 with `cycle_momentum` option "
                                         "enabled"),
    "sched_cyclic_mode": (ValueError, "mode is invalid and scale_fn is None"),
    "sched_positive_integer": (ValueError, "Expected positive integer {name}, but got {value}"),
    "sched_t_mult": (ValueError, "Expected integer T_mult >= 1, but got {T_mult}"),
    "sched_eta_min": (ValueError, "Expected float or int eta_min, but got {eta_min} of type {type}"),
    "sched_negative_epoch": (ValueError, "Expected non-negative epoch, but got {epoch}"),
    "sched_one_cycle_total": (ValueError, "You must define either total_steps OR (epochs AND steps_per_epoch)"),
    "sched_pct_start": (ValueError, "Expected float between 0 and 1 pct_start, but got {pct_start}"),
    "sched_anneal_strategy": (ValueError, "anneal_strategy must be one of 'cos' or 'linear', instead got "
                                          "{strategy}"),
    "sched_one_cycle_overrun": (ValueError, "Tried to step {steps} times. The specified number of total steps is "
                                            "{total}"),
    # swa_utils.py
    "swa_decay": (ValueError, "Invalid decay value {decay} provided. Please provide a value in [0,1] range."),
    "swa_two_avg_fns": (AssertionError, "Only one of avg_fn and multi_avg_fn should be provided"),
    "swa_anneal_epochs": (ValueError, "anneal_epochs must be equal or greater than 0, got {epochs}"),
    "sched_plateau_factor": (ValueError, "Factor should be < 1.0."),
    "sched_plateau_min_lrs": (ValueError, "expected {expected} min_lrs, got {got}"),
    "sched_plateau_groups": (RuntimeError, "The number of param groups in the `optimizer` ({groups}) differs from when "
                                           "`ReduceLROnPlateau` was initialized ({min_lrs}), usually due to a new "
                                           "param group being added to the optimizer. Please modify the `min_lrs` "
                                           "field to match the length of the `optimizer` param groups."),
    "sched_plateau_mode": (ValueError, "mode {mode} is unknown!"),
    "sched_plateau_threshold_mode": (ValueError, "threshold mode {mode} is unknown!"),
    "sched_get_lr": (UserWarning, "To get the last learning rate computed by the scheduler, please use "
                                  "`get_last_lr()`."),
    "sched_step_overridden": (UserWarning, "Seems like `optimizer.step()` has been overridden after learning rate "
                                           "scheduler initialization. Please, make sure to call `optimizer.step()` "
                                           "before `lr_scheduler.step()`. " + _ORDER_URL),
    "sched_step_order": (UserWarning, "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch "
                                      "1.1.0 and later, you should call them in the opposite order: "
                                      "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                                      "result in PyTorch skipping the first value of the learning rate schedule. "
                                      + _ORDER_URL),
    "sched_epoch_deprecated": (UserWarning, "The epoch parameter in `scheduler.step()` was not necessary and is being "
                                            "deprecated where possible. Please use `scheduler.step()` to step the "
                                            "scheduler. During the deprecation, if epoch is different from None, the "
                                            "closed form is used instead of the new chainable form, where available. "
                                            "Please open an issue if you are unable to replicate your use case: "
                                            "https://github.com/pytorch/pytorch/issues/new/choose."),
}
