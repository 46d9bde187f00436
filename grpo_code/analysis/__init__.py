"""The figures: pass@k and pass^k, their uncertainty over tasks, results and summaries, two runs
compared, task difficulty profiles, a training run's own logs, the plots and the reports. Pure
computation over records: no sandbox, no model; it imports only ``suites``."""
