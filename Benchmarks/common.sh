# Sourced by the benchmark scripts (scale.sh, xlsx.sh), which define OUT (a scratch directory), log, VENV, SUDO,
# and the associative arrays WALL, PEAK and STATUS.

# make_venv: creates the virtualenv $VENV when it has no pip (installing python3-venv with apt-get when Debian's
# python3 lacks it); leaves no $VENV when that fails.
make_venv() {
  [ -x "$VENV/bin/pip" ] && return 0
  log "creating the virtualenv $VENV"
  rm -rf "$VENV"
  if ! python3 -m venv "$VENV" >"$OUT/venv.log" 2>&1; then # Debian's python3 needs python3-venv
    rm -rf "$VENV"
    if { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y python3-venv ||
      { $SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y python3-venv; }; } \
      >>"$OUT/venv.log" 2>&1; then
      python3 -m venv "$VENV" >>"$OUT/venv.log" 2>&1 || rm -rf "$VENV"
    fi
  fi
  return 0
}

# make_payments: scale_generate.py's seeded ROWS-row payments (CSV, JSON Lines, a JSON array, XML) in $DATA,
# made once for the same ROWS, SEED and generator.
make_payments() {
  [ -f "$DATA/complete" ] && return 0
  log "generating $ROWS rows (seed $SEED) as CSV, JSON Lines, a JSON array and XML into $DATA"
  rm -rf "$DATA"
  mkdir -p "$DATA"
  python3 Benchmarks/scale_generate.py --rows "$ROWS" --seed "$SEED" --out-dir "$DATA"
  touch "$DATA/complete"
}

# run_timed NAME COMMAND…: wall seconds from bash's clock around /usr/bin/time -v, peak RSS in MB from it.
run_timed() {
  local name=$1 start end status=0
  shift
  start=$EPOCHREALTIME
  /usr/bin/time -v -o "$OUT/$name.time" "$@" || status=$?
  end=$EPOCHREALTIME
  WALL[$name]=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
  PEAK[$name]=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$OUT/$name.time")
  STATUS[$name]=$status
  [ "$status" -eq 0 ] || log "$name exited with status $status"
}
