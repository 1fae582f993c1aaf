# The catalogue of mistakes as CMake reads it: one Markdown file per exercise (layout.h's
# kMistakeFile, solutions/NN_topic/mistakes/<id>.md), each mistake a `## <slug>: <title>` section
# whose ```diff block says how it differs from today's solution. Configure applies the blocks and
# writes each mistake's source into the build folder; nothing else ever holds a copy.
#
# A diff block is one or more hunks separated by a line `@@`. In a hunk, a line starting with ' '
# is context (an empty line is an empty context line), '-' a line removed, '+' a line added. The
# hunk's old text (its context and '-' lines, whole lines) must occur exactly once in the solution;
# it is replaced by its new text (its context and '+' lines). Every hunk is found in the solution
# as it is, so hunks must not overlap; they are applied together.
#
# The C++ reader of the same format is the runner's (runner/README.md, "The catalogue of
# mistakes"); this file only builds from it. Strings are taken apart with string(FIND) and
# string(SUBSTRING), never as lists, so `;`, `[`, `]` and backslashes in C++ pass through as they
# are.

# Functions keep the policies in force where they are defined: if(IN_LIST), and quoted strings
# never read as variables, also in a script (cmake -P) that sets no minimum version.
cmake_policy(PUSH)
cmake_policy(SET CMP0054 NEW)
cmake_policy(SET CMP0057 NEW)

# _torchlings_mistake_fail(<md shown> <line> <text...>): stops configure, naming the .md and line.
# The text's pieces are read one by one (ARGV<n>), since ARGN would split them at each `;`.
function(_torchlings_mistake_fail shown line)
  set(text "")
  math(EXPR last "${ARGC} - 1")
  foreach(n RANGE 2 ${last})
    string(APPEND text "${ARGV${n}}")
  endforeach()
  message(FATAL_ERROR "${shown}:${line}: ${text}")
endfunction()

# _torchlings_count_lines(<out> <text>): how many "\n" the text holds.
function(_torchlings_count_lines out text)
  string(LENGTH "${text}" with)
  string(REPLACE "\n" "" text "${text}")
  string(LENGTH "${text}" without)
  math(EXPR n "${with} - ${without}")
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# torchlings_apply_mistakes(<md> <solution> [ROOT dir] [OUTPUT_DIR dir] [SOURCES out]
#                           [SLUGS out])
# Reads the catalogue <md> of one exercise, applies every mistake's diff to <solution> and, with
# OUTPUT_DIR, writes each result to <dir>/<slug><the solution's extension> (only when its content
# changed, so that an unchanged mistake is not rebuilt). The written file maps each line back with
# `#line`: unchanged lines to the solution, added lines to the .md line they come from, so that a
# compiler message points at the file a maintainer edits. SOURCES receives the written files,
# SLUGS the slugs in file order. ROOT shortens the paths in messages. Stops configure on a heading
# that is not `## <slug>: <title>` (slug [a-z0-9_]+), a repeated slug, a mistake without exactly
# one diff block, a hunk without old text, and a hunk whose old text is not in the solution
# exactly once (the solution changed where the mistake is: the message names the .md, the mistake
# and the hunk).
function(torchlings_apply_mistakes md solution)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "ROOT;OUTPUT_DIR;SOURCES;SLUGS" "")
  set(shown "${md}")
  set(solution_shown "${solution}")
  if(ARG_ROOT)
    file(RELATIVE_PATH shown "${ARG_ROOT}" "${md}")
    file(RELATIVE_PATH solution_shown "${ARG_ROOT}" "${solution}")
  endif()

  # --- Reading the .md: each mistake's title and hunks (old text, new text, and where each new
  # line comes from: "s<k>" for the k-th old line of the hunk, or the .md line of a '+' line). ---
  file(READ "${md}" text)
  string(REPLACE "\r\n" "\n" text "${text}")
  if(NOT text MATCHES "\n$")
    string(APPEND text "\n")
  endif()
  set(slugs "")
  set(slug "")
  set(in_diff FALSE)
  set(in_fence FALSE)
  set(line_no 0)
  while(NOT text STREQUAL "")
    string(FIND "${text}" "\n" end)
    string(SUBSTRING "${text}" 0 ${end} line)
    math(EXPR next "${end} + 1")
    string(SUBSTRING "${text}" ${next} -1 text)
    math(EXPR line_no "${line_no} + 1")
    if(in_diff)
      if(line STREQUAL "```")
        set(in_diff FALSE)
        continue()
      endif()
      if(line STREQUAL "@@")
        if(m_${slug}_old_${hunk} STREQUAL "" AND m_${slug}_map_${hunk} STREQUAL "")
          _torchlings_mistake_fail("${shown}" ${line_no} "mistake '${slug}': an empty hunk "
                                   "before `@@`")
        endif()
        math(EXPR hunk "${hunk} + 1")
        set(m_${slug}_hunks ${hunk})
        set(m_${slug}_old_${hunk} "")
        set(m_${slug}_new_${hunk} "")
        set(m_${slug}_map_${hunk} "")
        set(m_${slug}_at_${hunk} ${line_no})
        set(old_count 0)
        continue()
      endif()
      if(m_${slug}_map_${hunk} STREQUAL "" AND m_${slug}_old_${hunk} STREQUAL "")
        set(m_${slug}_at_${hunk} ${line_no})
      endif()
      string(SUBSTRING "${line}" 0 1 mark)
      string(SUBSTRING "${line}" 1 -1 rest)
      if(line STREQUAL "" OR mark STREQUAL " ")
        string(APPEND m_${slug}_old_${hunk} "${rest}\n")
        string(APPEND m_${slug}_new_${hunk} "${rest}\n")
        list(APPEND m_${slug}_map_${hunk} s${old_count})
        math(EXPR old_count "${old_count} + 1")
      elseif(mark STREQUAL "-")
        string(APPEND m_${slug}_old_${hunk} "${rest}\n")
        math(EXPR old_count "${old_count} + 1")
      elseif(mark STREQUAL "+")
        string(APPEND m_${slug}_new_${hunk} "${rest}\n")
        list(APPEND m_${slug}_map_${hunk} ${line_no})
      else()
        _torchlings_mistake_fail("${shown}" ${line_no} "mistake '${slug}': a line of a diff "
          "block starts with ' ' (context), '-' (removed) or '+' (added), or is `@@` between "
          "two hunks; got \"${line}\"")
      endif()
      continue()
    endif()
    if(in_fence)
      if(line MATCHES "^(```|~~~)")
        set(in_fence FALSE)
      endif()
    elseif(line MATCHES "^## ")
      if(NOT line MATCHES "^## ([a-z0-9_]+): *(.*)$")
        _torchlings_mistake_fail("${shown}" ${line_no} "a mistake's heading is "
                                 "`## <slug>: <title>`, the slug in [a-z0-9_]+; got \"${line}\"")
      endif()
      set(slug "${CMAKE_MATCH_1}")
      string(STRIP "${CMAKE_MATCH_2}" title)
      if(title STREQUAL "")
        _torchlings_mistake_fail("${shown}" ${line_no} "mistake '${slug}' has no title: "
                                 "`## ${slug}: <one-line title>`")
      endif()
      if(slug IN_LIST slugs)
        _torchlings_mistake_fail("${shown}" ${line_no} "the slug '${slug}' is used twice: "
                                 "each mistake of an exercise has a slug of its own")
      endif()
      list(APPEND slugs ${slug})
      set(m_${slug}_line ${line_no})
      set(m_${slug}_hunks 0)
    elseif(line MATCHES "^```diff *$")
      if(slug STREQUAL "")
        _torchlings_mistake_fail("${shown}" ${line_no} "a diff block before the first "
                                 "`## <slug>: <title>` heading")
      endif()
      if(NOT m_${slug}_hunks EQUAL 0)
        _torchlings_mistake_fail("${shown}" ${line_no} "mistake '${slug}' has a second diff "
                                 "block: put every hunk in one, separated by `@@` lines")
      endif()
      set(in_diff TRUE)
      set(hunk 1)
      set(m_${slug}_hunks 1)
      set(m_${slug}_old_1 "")
      set(m_${slug}_new_1 "")
      set(m_${slug}_map_1 "")
      set(m_${slug}_at_1 ${line_no})
      set(old_count 0)
    elseif(line MATCHES "^(```|~~~)")
      set(in_fence TRUE)
    endif()
  endwhile()
  if(in_diff)
    _torchlings_mistake_fail("${shown}" ${line_no} "mistake '${slug}': its diff block is not "
                             "closed by a line ```")
  endif()

  # --- Applying each mistake to the solution ---
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
  foreach(slug IN LISTS slugs)
    if(m_${slug}_hunks EQUAL 0)
      _torchlings_mistake_fail("${shown}" ${m_${slug}_line} "mistake '${slug}' has no ```diff "
                               "block saying how it differs from ${solution_shown}")
    endif()
    # Find every hunk in the solution: exactly once, as whole lines.
    set(starts "")
    foreach(k RANGE 1 ${m_${slug}_hunks})
      set(where "mistake '${slug}', hunk ${k} of ${m_${slug}_hunks}")
      if(m_${slug}_old_${k} STREQUAL "")
        _torchlings_mistake_fail("${shown}" ${m_${slug}_at_${k}} "${where} has no old text: a "
          "hunk that only adds lines needs a context line (' ') to say where they go")
      endif()
      string(FIND "${haystack}" "\n${m_${slug}_old_${k}}" at)
      if(at EQUAL -1)
        _torchlings_mistake_fail("${shown}" ${m_${slug}_at_${k}} "${where} no longer applies: "
          "its old text (the ' ' and '-' lines) is not in ${solution_shown}, which has changed "
          "there since the mistake was written. Write the mistake again against today's "
          "solution. The old text:\n${m_${slug}_old_${k}}")
      endif()
      math(EXPR after "${at} + 1")
      string(SUBSTRING "${haystack}" ${after} -1 later)
      string(FIND "${later}" "\n${m_${slug}_old_${k}}" again)
      if(NOT again EQUAL -1)
        _torchlings_mistake_fail("${shown}" ${m_${slug}_at_${k}} "${where} is ambiguous: its old "
          "text occurs more than once in ${solution_shown}. Add context lines (' ') until it "
          "occurs once. The old text:\n${m_${slug}_old_${k}}")
      endif()
      string(LENGTH "${m_${slug}_old_${k}}" old_length)
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
    set(changed FALSE)
    foreach(entry IN LISTS starts)
      string(REPLACE ":" ";" entry "${entry}")
      list(GET entry 0 at)
      list(GET entry 1 end)
      list(GET entry 2 k)
      if(at LESS cursor)
        _torchlings_mistake_fail("${shown}" ${m_${slug}_at_${k}} "mistake '${slug}', hunk ${k} "
          "overlaps another hunk in ${solution_shown}: merge them into one")
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
      if(NOT m_${slug}_old_${k} STREQUAL m_${slug}_new_${k})
        set(changed TRUE)
      endif()
      # The hunk's new text, one line at a time.
      set(new "${m_${slug}_new_${k}}")
      foreach(origin IN LISTS m_${slug}_map_${k})
        string(FIND "${new}" "\n" line_end)
        string(SUBSTRING "${new}" 0 ${line_end} line)
        math(EXPR line_end "${line_end} + 1")
        string(SUBSTRING "${new}" ${line_end} -1 new)
        if(origin MATCHES "^s([0-9]+)$")
          set(origin_file "s")
          math(EXPR number "${hunk_line} + ${CMAKE_MATCH_1}")
          set(quoted "${solution_quoted}")
        else()
          set(origin_file "m")
          set(number ${origin})
          set(quoted "${md_quoted}")
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
    if(NOT changed)
      _torchlings_mistake_fail("${shown}" ${m_${slug}_line} "mistake '${slug}' changes nothing: "
                               "its diff adds or removes no line")
    endif()
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
  endforeach()
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
