# Keys of 200 KB made of "~" and "/" (each escaped in a JSON Pointer to two
# bytes), nested: refused (65) at the right place, and the pointer kept for
# the message never outgrows its memory.
awk 'BEGIN {
	k = ""
	for (i = 0; i < 200000; i++)
		k = k (i % 2 ? "~" : "/")
	printf "{\"arbiter\": 1, \"ruleset\": \"aeonis\", \"turn\": 1,\n"
	printf " \"board\": {\"grid\": \"hex\", \"cols\": 5, \"rows\": 5},\n"
	printf " \"players\": {\"r\": {}},\n"
	printf " \"cells\": {\"0101\": {\"%s\": {\"%s\": 1}}}}\n", k, k
}' >"$1/map.json"
echo 65 >"$1/status"
