#!/bin/sh
# The command line as a new user meets it: version, bare `xoff` and `xoff help
# CMD`, a mistyped command, bad option values. Each case checks the exit code
# and a line of what is printed.
#   cli_commands_test.sh XOFF VERSION
X=$1
V=$2
fails=0
check() {  # check NAME WANT_RC PATTERN -- command...
  name=$1 want=$2 pat=$3
  shift 4
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$pat"; then
    echo "FAIL $name: exit $rc (want $want), output:"
    printf '%s\n' "$out" | head -5
    fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
}
check version 0 "^xoff $V\$" -- "$X" --version
check bare 0 "sweep" -- "$X"
check help 0 "collect" -- "$X" help
check help_cmd 0 "\-\-max-events" -- "$X" help run
check help_unknown 2 'did you mean "sweep"' -- "$X" help swep
check typo 2 'did you mean "run"' -- "$X" runn scenarios/demo.toml
check unknown 2 "the commands are" -- "$X" frobnicate
check bad_seed 2 "seed" -- "$X" run x.toml --seed abc
check bad_level 2 "shout" -- "$X" run x.toml --log-level shout
check bad_option 2 "\-\-nope" -- "$X" run x.toml --nope
[ "$fails" -eq 0 ] || exit 1
