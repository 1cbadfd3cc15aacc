"""Tournament administration as pure code: structures (levels, breaks) and the clock.

Nothing here imports Flask or SQLAlchemy or reads the clock; time is an argument.
"""
