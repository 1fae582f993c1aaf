# shellcheck shell=sh
# The learner's language for ./torchlings's own messages, before the runner exists. The rule is
# the runner's (runner/core/language.cpp): TORCHLINGS_LANG=ko or en, else the first of LC_ALL,
# LC_MESSAGES and LANG that is set and not empty, Korean when it starts with "ko" (another
# TORCHLINGS_LANG: the locale decides, and the runner says so). The test
# runner/e2e/language_rule_matches_the_wrapper holds the two to the same answers.
#   . scripts/setup/language.sh     sets KOREAN (1 for Korean, empty for English)
#   sh scripts/setup/language.sh    prints ko or en
KOREAN=""
case ${TORCHLINGS_LANG:-} in
  ko) KOREAN=1 ;;
  en) ;;
  *) for locale in "${LC_ALL:-}" "${LC_MESSAGES:-}" "${LANG:-}"; do
       if [ -n "$locale" ]; then
         case $locale in ko*) KOREAN=1 ;; esac
         break
       fi
     done ;;
esac
case ${0##*/} in
  language.sh) if [ -n "$KOREAN" ]; then echo ko; else echo en; fi ;;
esac
