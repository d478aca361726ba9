"""Games between agents: openings, schedules, the games, where they run, their statistics and results files.

* ``openings``: the two-move openings, a number of them drawn, the balanced ones, a file of them;
* ``schedule``: every pairing on every opening, twice with colours swapped (``GameTask``);
* ``records``: a game played (``GameRecord``) and its JSON form;
* ``play``: one game played to its end (``play_game``);
* ``pool``: many games, in this process, in local worker processes (``GamePool``) or on a Dask
  cluster (``cluster``), a finished game kept whatever happens to the others (``run_games``);
* ``summary``: a pairing's statistics, the SPRT, the rating list, kept game by game;
* ``results``: the results file, and the games a resumed run keeps from it.

**Results** are from the point of view of the agent named first in a pairing.  The seeds of
games and turns are ``plyscope.engine.seeds``'s, the statistics' formulas ``plyscope.engine.stats``'s.
"""
