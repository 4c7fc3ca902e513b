// A plugin that registers nothing.
int plugin_test_nothing_here() { return 0; }
