# A package of the project the imports test reads (test/python/imports-modules.test).
# Re-exported: `from pkg import fill_on` names ops.fill_on.
from .ops import fill_on  # noqa: F401
