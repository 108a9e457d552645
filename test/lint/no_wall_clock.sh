#!/bin/sh
# Determinism rule (STYLE "Randomness"): no rand/srand/time(), std::random_device
# or wall clock in sim/ or models/. Prints the offending lines and fails.
cd "$1" || exit 2
hits=$(grep -rnE '(^|[^_a-zA-Z0-9.:>])(s?rand|time)[[:space:]]*\(|random_device|std::chrono|system_clock|steady_clock|high_resolution_clock|gettimeofday|clock_gettime' \
  sim models --include='*.h' --include='*.cc' | grep -v '^\s*//' | grep -vE ':[0-9]+:\s*//')
if [ -n "$hits" ]; then
  echo "wall clock or unseeded randomness in sim/ or models/:"
  echo "$hits"
  exit 1
fi
echo "sim/ and models/ are free of rand(), time() and wall clocks"
