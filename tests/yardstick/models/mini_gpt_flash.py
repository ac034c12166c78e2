"""The minimal GPT with its attention computed by F.scaled_dot_product_attention(is_causal=True)
(no mask buffer), trained as mini_gpt is."""
from mini_gpt import (BLOCK, DETERMINISTIC, N_EMBD, N_HEAD, N_LAYER, VOCAB, GPT, evaluate,  # noqa: F401
                      make_batches, make_optimizer, train_step)


def make_model(dropout=0.1):
    return GPT(VOCAB, BLOCK, N_LAYER, N_HEAD, N_EMBD, dropout, flash=True)
