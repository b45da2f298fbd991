"""The pytest plugin's machinery; :mod:`plancheck.plugin` is the module pytest registers.

``hooks`` holds the hooks and fixtures, ``options`` the command-line options, ini keys and
markers, ``cache`` the per-session document cache, ``collectors`` ``assert_plan`` and
``plan_checks``, ``scrub`` the redaction of reports and ``assertrepr`` the explanation of
``knownvalue`` comparisons.
"""
