# Test of src/app/stage_site.cmake (run by ctest: tests/site/CMakeLists.txt).
#   cmake -DSCRIPT=src/app/stage_site.cmake -DWORK=<scratch folder> -P test_stage_site.cmake
# Prints "stage_site: all N checks passed" or stops at the first failure with what went wrong.
cmake_minimum_required(VERSION 3.18)   # cmake_language(EVAL)
file(REMOVE_RECURSE "${WORK}")
set(SRC "${WORK}/src")
set(SITE "${WORK}/site")
set(MANIFEST "${WORK}/manifest.txt")
file(MAKE_DIRECTORY "${SRC}/deep")
file(WRITE "${SRC}/index.html" "<p>page</p>\n")
file(WRITE "${SRC}/index.wasm" "wasm v1\n")
file(WRITE "${SRC}/deep/font.ttc" "font\n")
set(_checks 0)

# expect("CONDITION" [why]): CONDITION is if() syntax, evaluated here (variables of the caller are visible).
function(expect condition)
  math(EXPR _n "${_checks} + 1")
  set(_checks ${_n} PARENT_SCOPE)
  cmake_language(EVAL CODE "if(${condition})\n  set(_ok TRUE)\nelse()\n  set(_ok FALSE)\nendif()")
  if(NOT _ok)
    message(FATAL_ERROR "stage_site: check failed: ${condition} (${ARGN})")
  endif()
endfunction()
# stage(RESULT_VAR LINES...): writes the manifest, runs the script, stores its exit code.
function(stage result)
  string(REPLACE ";" "\n" _content "${ARGN}")
  file(WRITE "${MANIFEST}" "${_content}\n")
  execute_process(COMMAND "${CMAKE_COMMAND}" -DMANIFEST=${MANIFEST} -DSITE_DIR=${SITE} -P "${SCRIPT}"
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  set(${result} ${_rc} PARENT_SCOPE)
  set(stage_output "${_out}${_err}" PARENT_SCOPE)
endfunction()
function(read_file name var)
  file(READ "${SITE}/${name}" _text)
  set(${var} "${_text}" PARENT_SCOPE)
endfunction()

# 1. A new folder gets exactly the listed files (folders created on the way); a missing optional file is skipped.
set(FULL "index.html=${SRC}/index.html" "index.wasm=${SRC}/index.wasm" "fonts/cjk.ttc=${SRC}/deep/font.ttc"
         "?data/absent.bin=${SRC}/no-such-file")
stage(rc ${FULL})
expect("rc EQUAL 0" "first run: ${stage_output}")
expect("EXISTS ${SITE}/index.html AND EXISTS ${SITE}/index.wasm AND EXISTS ${SITE}/fonts/cjk.ttc")
expect("EXISTS ${SITE}/.attnlab-site" "the marker")
expect("NOT EXISTS ${SITE}/data" "an absent optional file leaves no folder")
read_file(index.wasm wasm)
expect("wasm STREQUAL \"wasm v1\n\"")

# 2. A changed source is copied again; anything not listed (a stray file, a folder, a file in a kept folder) goes.
file(WRITE "${SRC}/index.wasm" "wasm v2\n")
file(WRITE "${SITE}/CMakeCache.txt" "stray\n")
file(MAKE_DIRECTORY "${SITE}/CMakeFiles/x.dir")
file(WRITE "${SITE}/CMakeFiles/x.dir/a.o" "object\n")
file(WRITE "${SITE}/fonts/old.ttf" "old\n")
file(WRITE "${SITE}/.hidden" "hidden\n")
stage(rc ${FULL})
expect("rc EQUAL 0" "second run: ${stage_output}")
read_file(index.wasm wasm)
expect("wasm STREQUAL \"wasm v2\n\"" "the changed source was not copied")
expect("NOT EXISTS ${SITE}/CMakeCache.txt AND NOT EXISTS ${SITE}/CMakeFiles" "stray build files stay")
expect("NOT EXISTS ${SITE}/fonts/old.ttf AND EXISTS ${SITE}/fonts/cjk.ttc")
expect("NOT EXISTS ${SITE}/.hidden" "a stray dot-file stays")

# 3. A file dropped from the list (a rename, a removed feature) disappears with its then empty folder.
stage(rc "index.html=${SRC}/index.html" "index.wasm=${SRC}/index.wasm")
expect("rc EQUAL 0" "third run: ${stage_output}")
expect("NOT EXISTS ${SITE}/fonts" "a dropped file's folder stays")
expect("EXISTS ${SITE}/index.html AND EXISTS ${SITE}/.attnlab-site")

# 4. A missing required source fails the build.
stage(rc "index.html=${SRC}/index.html" "index.js=${SRC}/no-such-file")
expect("NOT rc EQUAL 0" "a missing required file was accepted")

# 5. A folder with files that this script did not make is never touched.
file(REMOVE_RECURSE "${SITE}")
file(MAKE_DIRECTORY "${SITE}")
file(WRITE "${SITE}/precious.txt" "mine\n")
stage(rc ${FULL})
expect("NOT rc EQUAL 0" "a foreign folder was accepted")
expect("EXISTS ${SITE}/precious.txt AND NOT EXISTS ${SITE}/index.html" "a foreign folder was changed")
expect("stage_output MATCHES \"refusing\"" "${stage_output}")

# 6. Destinations must stay inside the folder.
file(REMOVE_RECURSE "${SITE}")
stage(rc "../escape.html=${SRC}/index.html")
expect("NOT rc EQUAL 0" "a destination outside the folder was accepted")
expect("NOT EXISTS ${WORK}/escape.html")

file(REMOVE_RECURSE "${WORK}")
message("stage_site: all ${_checks} checks passed")
