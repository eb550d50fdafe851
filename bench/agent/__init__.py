"""Agent tasks on real web applications: calls, characters and false errors per task."""
