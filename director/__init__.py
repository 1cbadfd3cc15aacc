"""Omaha and stud tournament director."""
