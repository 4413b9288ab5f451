# cmake -P script: writes every shaders/*.glsl as a C++ raw string constant kShader_<name> into OUT.
# The GLSL files hold bodies only; the version line is prepended at load (gl_program.cpp), so one file serves
# WebGL2 (#version 300 es) and desktop GL (#version 330 core).
file(GLOB _files ${SHADER_DIR}/*.glsl)
list(SORT _files)
set(_out "// Generated from shaders/*.glsl by src/ui/embed_shaders.cmake. Do not edit.\n#pragma once\n\n")
foreach(_f ${_files})
  get_filename_component(_name ${_f} NAME_WE)
  string(MAKE_C_IDENTIFIER ${_name} _id)
  file(READ ${_f} _src)
  string(APPEND _out "inline constexpr const char* kShader_${_id} = R\"glsl(${_src})glsl\";\n\n")
endforeach()
file(WRITE ${OUT}.tmp "${_out}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
