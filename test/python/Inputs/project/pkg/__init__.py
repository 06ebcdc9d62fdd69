# A package of the project the imports test reads (test/python/imports-modules.test).
