# tests/layout/: the layering of src/LAYERS, checked on the code and on the objects; the map
# of the tree (doc/ARCHITECTURE.md) checked against the tree; no function over 120 lines
# (check_lengths.sh); no circle between the folders of the tree (check_graph.sh); every
# command's options read once, into its typed request (check_requests.sh); and the
# checkers' own test (each must reject a tree that breaks each of its rules).
LAYER_TESTS = tests/layout/check_layers.sh tests/layout/check_map.sh tests/layout/check_lengths.sh \
	tests/layout/check_graph.sh tests/layout/check_requests.sh tests/layout/self_test.sh
TESTS += $(LAYER_TESTS)
EXTRA_DIST += $(LAYER_TESTS) tests/layout/selftest.sh src/LAYERS
AM_TESTS_ENVIRONMENT += top_builddir=$(top_builddir); export top_builddir; CC='$(CC)'; export CC;
