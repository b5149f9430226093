if (THIS_THING == "six"){
    output.something = "foo"
} else {
    output.something = "bar"
}