/* One line per unit-test suite (an array of struct test_case in t-<name>.c). */
SUITE(symtab_tests)
SUITE(symmap_tests)
SUITE(callgraph_tests)
SUITE(text_tests)
SUITE(tracedat_write_tests)
SUITE(record_tests)
