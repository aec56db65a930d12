"""Rules for the structured matrices of chainrules.structured and for scipy.sparse arrays."""
