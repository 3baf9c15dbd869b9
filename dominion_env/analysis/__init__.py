"""Analysis: bot games in compiled code (arena), tournaments, ratings and reports; where the
pieces of work run (executor: here, or Ray tasks)."""
