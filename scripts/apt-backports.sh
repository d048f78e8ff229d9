# Sourced by setup-system.sh (and its test): derive the apt line of <codename>-backports from
# the machine's own configured Debian source, so that no host name is hard-wired here.
#
#   backports_line CODENAME FILE...
#
# reads apt source files in either format, classic one-line (`deb [opts] URI SUITE COMP...`,
# *.list) or deb822 (*.sources: stanzas of Types/URIs/Suites/Components/Signed-By/Enabled),
# finds the first enabled `deb` source whose suites include CODENAME itself and prints
#
#   deb [signed-by=KEY] URI CODENAME-backports main
#
# (same URI, same key when the source names one); prints nothing and returns 1 when no file
# has such a source. Missing or unreadable files are skipped.
backports_line() {
  local codename=$1; shift
  local f
  for f in "$@"; do
    [ -r "$f" ] || continue
    local line
    case "$f" in
      *.sources) line=$(awk -v want="$codename" -f - "$f" <<'AWK'
function flush() {
  if (types ~ /(^| )deb( |$)/ && enabled !~ /^(no|false|0)$/ && uri != "" && (" " suites " ") ~ (" " want " ")) {
    printf "deb %s%s %s-backports main\n", (key != "" ? "[signed-by=" key "] " : ""), uri, want; found = 1; exit
  }
  types = ""; uris = ""; uri = ""; suites = ""; key = ""; enabled = ""
}
/^[ \t]*#/ { next }
/^[ \t]*$/ { flush(); next }
/^[^ \t]/ {
  name = tolower($1); sub(/:$/, "", name); value = $0; sub(/^[^:]*:[ \t]*/, "", value); gsub(/[ \t]+/, " ", value); sub(/ $/, "", value)
  if (name == "types") types = value
  else if (name == "uris") { uri = value; sub(/ .*/, "", uri) }
  else if (name == "suites") suites = value
  else if (name == "signed-by") key = (value ~ /^\// ? value : "")
  else if (name == "enabled") enabled = tolower(value)
}
END { if (!found) flush() }
AWK
) ;;
      *) line=$(awk -v want="$codename" '
/^[ \t]*deb[ \t]/ {
  i = 2; opts = ""
  if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) { opts = opts " " $i; i++ } opts = opts " " $i; i++ }
  uri = $i; suite = $(i + 1)
  if (suite != want) next
  key = ""
  if (match(opts, /signed-by=[^] ]+/)) key = substr(opts, RSTART + 10, RLENGTH - 10)
  printf "deb %s%s %s-backports main\n", (key != "" ? "[signed-by=" key "] " : ""), uri, want; exit
}' "$f") ;;
    esac
    if [ -n "$line" ]; then
      printf '%s\n' "$line"
      return 0
    fi
  done
  return 1
}

# The apt source files of this machine, classic first (apt reads them all).
apt_source_files() {
  local root=${1:-/etc/apt}
  printf '%s\n' "$root/sources.list"
  local f
  for f in "$root"/sources.list.d/*.list "$root"/sources.list.d/*.sources; do
    [ -e "$f" ] && printf '%s\n' "$f"
  done
  return 0
}
