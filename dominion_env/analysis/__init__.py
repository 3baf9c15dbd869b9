"""Analysis: bot games in compiled code (arena), tournaments, ratings and reports."""
