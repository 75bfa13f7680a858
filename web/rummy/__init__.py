"""The rummy («Джокер», ``raspis-rummy/1``) on the pages: its findings in words and its report."""
