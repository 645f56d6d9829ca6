"""Scenario files, our DATC (docs/scenarios.md): one rules case per YAML file, run by the test
suite and by `pbem scenario FILE...`, so a case can be checked without the test suite."""
