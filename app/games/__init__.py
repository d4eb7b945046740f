"""Games: stored state, the event log, pitches, the one command path, timers, fairness."""
