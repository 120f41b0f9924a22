#!/bin/bash
# usage: restart3.sh <checkout> <datadir> <port> ; prints wall ms and cpu ms to healthz
start=$(date +%s%N)
cd $1; MUSTER_DATA_DIR=$2 PORT=$3 HOST=127.0.0.1 LOG_LEVEL=silent node bin/muster.js serve --json > /dev/null 2>&1 &
pid=$!
until curl -s -o /dev/null -f 127.0.0.1:$3/api/v1/healthz; do sleep 0.01; done
end=$(date +%s%N)
cpu=$(awk '{print ($14+$15)*10}' /proc/$pid/stat)
echo "$1 wall $(( (end-start)/1000000 )) cpu $cpu"
kill $pid; wait $pid 2>/dev/null
