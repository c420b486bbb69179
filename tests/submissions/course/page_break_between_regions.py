# attack: a passing lesson-11 harness with an editor's page break (a form feed line) and a
#   comment holding U+2028 (a line separator, as pasted from a web page) right above a
#   region header. Python's lines end at newlines only; str.splitlines also ends one at
#   both, so carrying read every later line as the one before it and wrote a file that
#   did not parse. And a comment right above a header was dropped when carried.
# put: harness.py: lesson 11's finished harness, the lines below the blank line
#   inserted above its `# == 2 ` region header
# run: --next
# must: carry it into lesson 16 whole: a file that compiles, with the student's code and
#   comments in it, the old file kept as harness.py.bak-1


# my notes on the loop:   see the adapter lesson
