# Makes lib/format/sheet-page.h from lib/format/sheet.html: each part of
# the page, from a line "<!-- @NAME -->" to the next, becomes the array
# sheet_NAME of its lines (each a string under C's 4095 bytes; the array
# ends in NULL), which sheet.c writes around its picture and data.
function close_part() {
	if (name != "")
		print "\tNULL\n};"
}
BEGIN {
	print "/*"
	print " * The order sheet's page (sheet.c), made from sheet.html by"
	print " * sheet-page.awk (make): do not edit; edit sheet.html."
	print " */"
	name = ""
}
/^<!-- @[A-Z]+ -->$/ {
	close_part()
	name = tolower(substr($2, 2))
	printf "static const char *const sheet_%s[] = {\n", name
	next
}
{
	gsub(/\\/, "&&")
	gsub(/"/, "\\\"")
	gsub(/\?\?/, "?\\?")
	printf "\t\"%s\\n\",\n", $0
}
END {
	close_part()
}
