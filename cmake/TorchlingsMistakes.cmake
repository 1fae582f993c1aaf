# The catalogue of mistakes as configure builds it: each mistake's source is today's solution with
# the mistake's hunks applied, written into the build folder; nothing else ever holds a copy.
# CMake reads no Markdown: the hunks come from TorchlingsLayout.cmake's kMistakeIndex
# (solutions/mistakes.json), which the catalogue's one reader, the runner, writes from the .md
# files (`./torchlings dev index`; runner/README.md, "The catalogue of mistakes").
#
# A hunk is an old text (whole lines, each ending in "\n") that must occur exactly once in the
# solution, and the new text that replaces it. Every hunk is found in the solution as it is, so
# hunks must not overlap; they are applied together. Strings are taken apart with string(FIND) and
# string(SUBSTRING), never as lists, so `;`, `[`, `]` and backslashes in C++ pass through as they
# are.

# Functions keep the policies in force where they are defined: if(IN_LIST), and quoted strings
# never read as variables, also in a script (cmake -P) that sets no minimum version.
cmake_policy(PUSH)
cmake_policy(SET CMP0054 NEW)
cmake_policy(SET CMP0057 NEW)

# _torchlings_count_lines(<out> <text>): how many "\n" the text holds.
function(_torchlings_count_lines out text)
  string(LENGTH "${text}" with)
  string(REPLACE "\n" "" text "${text}")
  string(LENGTH "${text}" without)
  math(EXPR n "${with} - ${without}")
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# torchlings_apply_mistakes(<root> <folder> <id> <solution> [OUTPUT_DIR dir] [SOURCES out]
#                           [SLUGS out])
# Applies every mistake that kMistakeIndex holds for exercise <id> of lesson <folder> (none, with
# a warning, when the index does not hold its .md as it is now: torchlings_index_entry) to
# <solution> and, with OUTPUT_DIR, writes each result to <dir>/<slug><the solution's extension>
# (only when its content changed, so that an unchanged mistake is not rebuilt). The written file
# maps each line back with `#line`: unchanged lines to the solution, added lines to the line of the
# .md they come from, so that a compiler message points at the file a maintainer edits. SOURCES
# receives the written files, SLUGS the slugs in file order. Stops configure on a hunk whose old
# text is not in the solution exactly once (the solution changed where the mistake is: the message
# names the .md, the mistake and the hunk) and on hunks that overlap.
function(torchlings_apply_mistakes root folder id solution)
  cmake_parse_arguments(PARSE_ARGV 4 ARG "" "OUTPUT_DIR;SOURCES;SLUGS" "")
  torchlings_layout_path(md kMistakeFile "${root}" "${folder}" "${id}")
  file(RELATIVE_PATH shown "${root}" "${md}")
  file(RELATIVE_PATH solution_shown "${root}" "${solution}")
  # The hunks, when the index holds the .md as it is now (else a warning, and no mistake).
  torchlings_index_entry(entry "${root}" kMistakeIndex "${md}" "The mistakes of '${id}' are"
                         "${folder}" "${id}")
  set(count 0)
  if(NOT entry STREQUAL "")
    string(JSON count LENGTH "${entry}" mistakes)
  endif()

  file(READ "${solution}" base)
  if(NOT base MATCHES "\n$")
    string(APPEND base "\n")
  endif()
  set(haystack "\n${base}")
  get_filename_component(extension "${solution}" LAST_EXT)
  string(REPLACE "\\" "\\\\" solution_quoted "${solution}")
  string(REPLACE "\"" "\\\"" solution_quoted "${solution_quoted}")
  string(REPLACE "\\" "\\\\" md_quoted "${md}")
  string(REPLACE "\"" "\\\"" md_quoted "${md_quoted}")
  set(sources "")
  set(slugs "")
  set(m 0)
  while(m LESS count)
    string(JSON mistake GET "${entry}" mistakes ${m})
    math(EXPR m "${m} + 1")
    string(JSON slug GET "${mistake}" slug)
    list(APPEND slugs ${slug})
    string(JSON hunks LENGTH "${mistake}" hunks)
    # Find every hunk in the solution: exactly once, as whole lines.
    set(starts "")
    foreach(k RANGE 1 ${hunks})
      math(EXPR i "${k} - 1")
      string(JSON hunk GET "${mistake}" hunks ${i})
      string(JSON old_${k} GET "${hunk}" old)
      string(JSON new_${k} GET "${hunk}" new)
      string(JSON at_${k} GET "${hunk}" line)
      string(JSON lines LENGTH "${hunk}" from)
      set(map_${k} "")
      set(j 0)
      while(j LESS lines)
        string(JSON origin GET "${hunk}" from ${j})
        list(APPEND map_${k} ${origin})
        math(EXPR j "${j} + 1")
      endwhile()
      set(where "${shown}:${at_${k}}: mistake '${slug}', hunk ${k} of ${hunks}")
      string(FIND "${haystack}" "\n${old_${k}}" at)
      if(at EQUAL -1)
        message(FATAL_ERROR "${where} no longer applies: its old text (the ' ' and '-' lines) is "
          "not in ${solution_shown}, which has changed there since the mistake was written. Write "
          "the mistake again against today's solution. The old text:\n${old_${k}}")
      endif()
      math(EXPR after "${at} + 1")
      string(SUBSTRING "${haystack}" ${after} -1 later)
      string(FIND "${later}" "\n${old_${k}}" again)
      if(NOT again EQUAL -1)
        message(FATAL_ERROR "${where} is ambiguous: its old text occurs more than once in "
          "${solution_shown}. Add context lines (' ') until it occurs once. The old "
          "text:\n${old_${k}}")
      endif()
      string(LENGTH "${old_${k}}" old_length)
      math(EXPR end "${at} + ${old_length}")
      list(APPEND starts "${at}:${end}:${k}")
    endforeach()
    list(SORT starts COMPARE NATURAL)  # by position in the solution

    # Write: the solution's text between hunks, each hunk's new text, and `#line` where the
    # origin of the next line is not the line after the previous one's.
    set(out "")
    set(cursor 0)
    set(expect_file "")
    set(expect_line 0)
    foreach(start IN LISTS starts)
      string(REPLACE ":" ";" start "${start}")
      list(GET start 0 at)
      list(GET start 1 end)
      list(GET start 2 k)
      if(at LESS cursor)
        message(FATAL_ERROR "${shown}:${at_${k}}: mistake '${slug}', hunk ${k} overlaps another "
                            "hunk in ${solution_shown}: merge them into one")
      endif()
      # The unchanged text before the hunk.
      math(EXPR length "${at} - ${cursor}")
      string(SUBSTRING "${base}" ${cursor} ${length} same)
      string(SUBSTRING "${base}" 0 ${at} before)
      _torchlings_count_lines(hunk_line "${before}")
      math(EXPR hunk_line "${hunk_line} + 1")  # the solution line where the hunk starts
      if(NOT same STREQUAL "")
        string(SUBSTRING "${base}" 0 ${cursor} before)
        _torchlings_count_lines(first "${before}")
        math(EXPR first "${first} + 1")
        if(NOT (expect_file STREQUAL "s" AND expect_line EQUAL first))
          string(APPEND out "#line ${first} \"${solution_quoted}\"\n")
        endif()
        string(APPEND out "${same}")
        set(expect_file "s")
        set(expect_line ${hunk_line})
      endif()
      # The hunk's new text, one line at a time: "s<k>" the k-th old line, "m<n>" .md line n.
      set(new "${new_${k}}")
      foreach(origin IN LISTS map_${k})
        string(FIND "${new}" "\n" line_end)
        string(SUBSTRING "${new}" 0 ${line_end} line)
        math(EXPR line_end "${line_end} + 1")
        string(SUBSTRING "${new}" ${line_end} -1 new)
        if(origin MATCHES "^s([0-9]+)$")
          set(origin_file "s")
          math(EXPR number "${hunk_line} + ${CMAKE_MATCH_1}")
          set(quoted "${solution_quoted}")
        elseif(origin MATCHES "^m([0-9]+)$")
          set(origin_file "m")
          set(number ${CMAKE_MATCH_1})
          set(quoted "${md_quoted}")
        else()
          message(FATAL_ERROR "${TORCHLINGS_LAYOUT_kMistakeIndex}: mistake '${slug}' of "
                              "${shown}: a line comes from \"${origin}\", not s<k> or m<n>")
        endif()
        # No directive after a line that a backslash continues (a macro's body).
        if(NOT (expect_file STREQUAL origin_file AND expect_line EQUAL number) AND
           NOT out MATCHES "\\\\\n$")
          string(APPEND out "#line ${number} \"${quoted}\"\n")
        endif()
        string(APPEND out "${line}\n")
        set(expect_file "${origin_file}")
        math(EXPR expect_line "${number} + 1")
      endforeach()
      set(cursor ${end})
      string(SUBSTRING "${base}" 0 ${end} before)
      _torchlings_count_lines(resume "${before}")
      math(EXPR resume "${resume} + 1")
    endforeach()
    string(SUBSTRING "${base}" ${cursor} -1 same)
    if(NOT same STREQUAL "")
      if(NOT (expect_file STREQUAL "s" AND expect_line EQUAL resume))
        string(APPEND out "#line ${resume} \"${solution_quoted}\"\n")
      endif()
      string(APPEND out "${same}")
    endif()
    if(ARG_OUTPUT_DIR)
      set(target_file "${ARG_OUTPUT_DIR}/${slug}${extension}")
      set(old "")
      if(EXISTS "${target_file}")
        file(READ "${target_file}" old)
      endif()
      if(NOT old STREQUAL out)
        file(WRITE "${target_file}" "${out}")
      endif()
      list(APPEND sources "${target_file}")
    endif()
  endwhile()
  if(ARG_OUTPUT_DIR)
    # A mistake removed from the catalogue leaves no source behind.
    file(GLOB written "${ARG_OUTPUT_DIR}/*")
    foreach(file IN LISTS written)
      if(NOT file IN_LIST sources)
        file(REMOVE "${file}")
      endif()
    endforeach()
  endif()
  if(ARG_SOURCES)
    set(${ARG_SOURCES} "${sources}" PARENT_SCOPE)
  endif()
  if(ARG_SLUGS)
    set(${ARG_SLUGS} "${slugs}" PARENT_SCOPE)
  endif()
endfunction()

cmake_policy(POP)
