"""`flowgrad port`: translate a script between torch, paddle and oneflow, with the mapping read from
the facades (`naming`, `table`), the rewrite in libcst (`translate`), the autograd differences flagged
(`semantics`), the summary (`summary`) and `--verify` (`verify`, `record`). The command is `cli`;
libcst is the optional `port` extra, imported only by `translate`."""
