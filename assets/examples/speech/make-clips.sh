#!/bin/sh
# Synthesises the speech example's dataset: short everyday English sentences spoken by
# espeak-ng (US and British voices, a few speeds), made 16 kHz mono 16-bit PCM WAV by sox
# (what PocketSphinx's en-us model expects), peak-normalised to -12 dBFS, with 0.3 s of
# silence either side (espeak-ng leaves well under 0.1 s before the speech), into
# audio/NN.wav; and one row per clip,
#   {"input": {"audio": "../audio/NN.wav"}, "expected": {"transcription": "..."}},
# into data/clips.jsonl. The WAVs are committed: they are the dataset, this script is how
# they were made. Its output is the same byte for byte on every run for given versions (made
# with espeak-ng 1.51 and sox 14.4.2, Debian 12): sox's -D turns off the dither it would
# otherwise add, randomly seeded, when it resamples. Other versions may differ slightly.
#
# Needs: espeak-ng, sox. Run from anywhere: sh assets/examples/speech/make-clips.sh
set -eu
cd "$(dirname "$0")"
command -v espeak-ng >/dev/null || { echo "make-clips.sh: espeak-ng is not installed (apt-get install espeak-ng)" >&2; exit 1; }
command -v sox >/dev/null || { echo "make-clips.sh: sox is not installed (apt-get install sox)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p audio data
rm -f audio/*.wav
out=data/clips.jsonl
: >"$out"

# One clip a line: voice|words per minute|what is spoken|the expected transcription.
# Scoring is exact match, so the expected text is written the way a speech recogniser
# outputs it, not the way the sentence is written: lowercase, no punctuation, numbers
# spelt out as words ("7" is spoken "seven" and must be expected as "seven"). Only
# lowercase letters, spaces and apostrophes, so it needs no JSON escaping.
n=0
while IFS='|' read -r voice speed spoken expected; do
	n=$((n + 1))
	nn=$(printf '%02d' "$n")
	espeak-ng -v "$voice" -s "$speed" -w "$tmp/$nn.wav" "$spoken"
	sox -D "$tmp/$nn.wav" -r 16000 -c 1 -b 16 "audio/$nn.wav" gain -n -12 pad 0.3 0.3
	printf '{"input": {"audio": "../audio/%s.wav"}, "expected": {"transcription": "%s"}}\n' "$nn" "$expected" >>"$out"
done <<'EOF'
en-us|150|Please close the door when you leave.|please close the door when you leave
en-gb|140|The train leaves at 7 in the morning.|the train leaves at seven in the morning
en-us|160|I would like a cup of coffee.|i would like a cup of coffee
en-gb|170|It is going to rain this afternoon.|it is going to rain this afternoon
en-us|145|Where did you park the car?|where did you park the car
en-gb|155|My sister lives in a small town.|my sister lives in a small town
en-us|165|Can you call me back tomorrow?|can you call me back tomorrow
en-gb|150|We need to buy milk and bread.|we need to buy milk and bread
en-us|140|The meeting starts in 10 minutes.|the meeting starts in ten minutes
en-gb|160|Turn left at the next corner.|turn left at the next corner
en-us|170|She reads the newspaper every morning.|she reads the newspaper every morning
en-gb|145|How much does this shirt cost?|how much does this shirt cost
en-us|155|The children are playing in the garden.|the children are playing in the garden
en-gb|165|I forgot my keys at home.|i forgot my keys at home
en-us|150|Dinner will be ready in half an hour.|dinner will be ready in half an hour
en-gb|140|He works at the hospital downtown.|he works at the hospital downtown
en-us|160|Please send me the report by Friday.|please send me the report by friday
en-gb|170|The shop closes at 6 on Sundays.|the shop closes at six on sundays
en-us|145|Do you know the way to the station?|do you know the way to the station
en-gb|155|We are going on holiday next week.|we are going on holiday next week
en-us|165|There are 3 apples on the table.|there are three apples on the table
en-gb|150|Thank you very much for your help.|thank you very much for your help
en-us|140|What time is it now?|what time is it now
en-gb|160|I will see you on Monday.|i will see you on monday
EOF
echo "make-clips.sh: $n clips in audio/, rows in $out"
