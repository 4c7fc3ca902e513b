# Embeds configs/quick.json in the binary as the default sweep.
file(READ "${IN}" text)
file(WRITE "${OUT}.new" "// Generated from configs/quick.json by cmake/embed_config.cmake; do not edit.
#include \"sortbench/config.hpp\"
namespace sortbench {
const std::string& embedded_quick_config() {
  static const std::string text = R\"SORTBENCH_JSON(${text})SORTBENCH_JSON\";
  return text;
}
}  // namespace sortbench
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.new" "${OUT}")
file(REMOVE "${OUT}.new")
