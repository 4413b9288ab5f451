# Makes the deployable folder of the page (build/site) hold exactly the files of a manifest, and nothing else.
#
#   cmake -DMANIFEST=<build>/site-manifest.txt -DSITE_DIR=<folder> -P stage_site.cmake
#
# MANIFEST: one file per line, "DEST=SOURCE" (DEST relative to SITE_DIR, may hold '/'; SOURCE absolute). A line
# "?DEST=SOURCE" is optional: skipped when SOURCE does not exist. src/app/CMakeLists.txt writes the manifest
# (target attnlab_site, which every build of the web tree runs).
#
# 1. Copy each SOURCE to SITE_DIR/DEST when its bytes differ (unchanged files keep their time stamps, so a running
#    `make serve` and the browser's cache see only real changes).
# 2. Delete every file and folder of SITE_DIR that the manifest does not name, so a file dropped from or renamed
#    in the manifest does not linger and get deployed.
# Step 2 deletes files, so SITE_DIR must be a folder this script made: new, empty, or holding the marker file
# .attnlab-site that it writes (the dev server never serves dot-files). Anything else stops with an error.
cmake_minimum_required(VERSION 3.16)
foreach(_var MANIFEST SITE_DIR)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "stage_site.cmake: -D${_var}=... is required")
  endif()
endforeach()
get_filename_component(SITE_DIR "${SITE_DIR}" ABSOLUTE)
set(_marker_name ".attnlab-site")
set(_marker "${SITE_DIR}/${_marker_name}")

if(EXISTS "${SITE_DIR}" AND NOT IS_DIRECTORY "${SITE_DIR}")
  message(FATAL_ERROR "stage_site.cmake: ${SITE_DIR} exists and is not a folder")
endif()
if(IS_DIRECTORY "${SITE_DIR}" AND NOT EXISTS "${_marker}")
  file(GLOB _existing "${SITE_DIR}/*")   # "*" matches dot-files too
  if(_existing)
    message(FATAL_ERROR "stage_site.cmake: ${SITE_DIR} holds files but no ${_marker_name}, so this build did not "
                        "make it; refusing to delete anything there. Empty it, or set ATTNLAB_SITE_DIR elsewhere.")
  endif()
endif()
file(MAKE_DIRECTORY "${SITE_DIR}")
file(WRITE "${_marker}.tmp"
  "This folder is written by the AttnLab build (src/app/stage_site.cmake): each build copies the page's files here\n"
  "and deletes every other file. Deploy the folder as it is; do not keep anything of your own in it.\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${_marker}.tmp" "${_marker}")
file(REMOVE "${_marker}.tmp")

# ---- 1. copy
file(STRINGS "${MANIFEST}" _lines)
set(_keep "${_marker_name}")
foreach(_line IN LISTS _lines)
  if(_line STREQUAL "")
    continue()
  endif()
  set(_optional FALSE)
  if(_line MATCHES "^\\?")
    set(_optional TRUE)
    string(SUBSTRING "${_line}" 1 -1 _line)
  endif()
  string(FIND "${_line}" "=" _eq)
  if(_eq LESS 1)
    message(FATAL_ERROR "stage_site.cmake: bad manifest line '${_line}' (expected DEST=SOURCE)")
  endif()
  string(SUBSTRING "${_line}" 0 ${_eq} _dest)
  math(EXPR _from "${_eq} + 1")
  string(SUBSTRING "${_line}" ${_from} -1 _source)
  if(_dest MATCHES "(^|/)\\.\\.?(/|$)" OR IS_ABSOLUTE "${_dest}")
    message(FATAL_ERROR "stage_site.cmake: destination '${_dest}' must be a plain relative path")
  endif()
  if(NOT EXISTS "${_source}" OR IS_DIRECTORY "${_source}")
    if(_optional)
      continue()
    endif()
    message(FATAL_ERROR "stage_site.cmake: ${_source} (for ${_dest}) does not exist")
  endif()
  get_filename_component(_dest_dir "${SITE_DIR}/${_dest}" DIRECTORY)
  file(MAKE_DIRECTORY "${_dest_dir}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${_source}" "${SITE_DIR}/${_dest}"
                  RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "stage_site.cmake: copying ${_source} to ${SITE_DIR}/${_dest} failed")
  endif()
  list(APPEND _keep "${_dest}")
  # Keep the folders on the way to it too.
  string(REGEX REPLACE "/[^/]*$" "" _parent "${_dest}")
  while(NOT _parent STREQUAL _dest AND NOT _parent STREQUAL "")
    list(APPEND _keep "${_parent}")
    set(_dest "${_parent}")
    string(REGEX REPLACE "/[^/]*$" "" _parent "${_dest}")
  endwhile()
endforeach()

# ---- 2. prune: every entry not kept (files, symlinks, folders), deepest first so folders are empty when reached
file(GLOB_RECURSE _entries LIST_DIRECTORIES true RELATIVE "${SITE_DIR}" "${SITE_DIR}/*")
list(SORT _entries)
list(REVERSE _entries)
foreach(_entry IN LISTS _entries)
  list(FIND _keep "${_entry}" _found)
  if(_found GREATER -1)
    continue()
  endif()
  if(IS_DIRECTORY "${SITE_DIR}/${_entry}" AND NOT IS_SYMLINK "${SITE_DIR}/${_entry}")
    file(GLOB _left "${SITE_DIR}/${_entry}/*")
    if(NOT _left)
      file(REMOVE_RECURSE "${SITE_DIR}/${_entry}")
    endif()
  else()
    message(STATUS "site: removing ${_entry} (no longer part of the page)")
    file(REMOVE "${SITE_DIR}/${_entry}")
  endif()
endforeach()
