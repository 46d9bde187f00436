"""Go 1.19 reference solutions of the stdio-basics problems, by problem name."""

def program(imports: list[str], body: str, reader: str = "words") -> str:
    """A Go program: ``words`` reads whitespace-separated words (``next()``), ``text`` the whole
    input (``input``)."""
    needed = {"bufio", "os"} | set(imports)
    if reader == "words":
        setup = ("\tin := bufio.NewScanner(os.Stdin)\n\tin.Buffer(make([]byte, 1<<20), 1<<20)\n"
                 "\tin.Split(bufio.ScanWords)\n\tnext := func() string { in.Scan(); return in.Text() }\n")
    else:
        needed = (needed - {"bufio"}) | {"io"}
        setup = "\tdata, _ := io.ReadAll(os.Stdin)\n\tinput := string(data)\n"
    block = "".join(f'\t"{name}"\n' for name in sorted(needed))
    return f"package main\n\nimport (\n{block})\n\nfunc main() {{\n{setup}{body}}}\n"


REFERENCES = {
"sum-two": program(["fmt", "strconv"], """\ta, _ := strconv.ParseInt(next(), 10, 64)
\tb, _ := strconv.ParseInt(next(), 10, 64)
\tfmt.Println(a + b)
"""),
"sum-list": program(["fmt", "strconv"], """\tn, _ := strconv.Atoi(next())
\tvar total int64
\tfor i := 0; i < n; i++ {
\t\tx, _ := strconv.ParseInt(next(), 10, 64)
\t\ttotal += x
\t}
\tfmt.Println(total)
"""),
"min-max": program(["fmt", "strconv"], """\tn, _ := strconv.Atoi(next())
\tlo, _ := strconv.ParseInt(next(), 10, 64)
\thi := lo
\tfor i := 1; i < n; i++ {
\t\tx, _ := strconv.ParseInt(next(), 10, 64)
\t\tif x < lo {
\t\t\tlo = x
\t\t}
\t\tif x > hi {
\t\t\thi = x
\t\t}
\t}
\tfmt.Println(lo, hi)
"""),
"reverse-words": program(["fmt", "strings"], """\twords := strings.Fields(strings.SplitN(input, "\\n", 2)[0])
\tfor i, j := 0, len(words)-1; i < j; i, j = i+1, j-1 {
\t\twords[i], words[j] = words[j], words[i]
\t}
\tfmt.Println(strings.Join(words, " "))
""", "text"),
"count-vowels": program(["fmt", "strings"], """\tcount := 0
\tfor _, ch := range strings.SplitN(input, "\\n", 2)[0] {
\t\tif strings.ContainsRune("aeiouAEIOU", ch) {
\t\t\tcount++
\t\t}
\t}
\tfmt.Println(count)
""", "text"),
"sort-numbers": program(["fmt", "sort", "strconv", "strings"], """\tn, _ := strconv.Atoi(next())
\txs := make([]int64, n)
\tfor i := range xs {
\t\txs[i], _ = strconv.ParseInt(next(), 10, 64)
\t}
\tsort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
\tout := make([]string, n)
\tfor i, x := range xs {
\t\tout[i] = strconv.FormatInt(x, 10)
\t}
\tfmt.Println(strings.Join(out, " "))
"""),
"fizzbuzz": program(["strconv"], """\tn, _ := strconv.Atoi(next())
\tw := bufio.NewWriter(os.Stdout)
\tdefer w.Flush()
\tfor i := 1; i <= n; i++ {
\t\tswitch {
\t\tcase i%15 == 0:
\t\t\tw.WriteString("FizzBuzz\\n")
\t\tcase i%3 == 0:
\t\t\tw.WriteString("Fizz\\n")
\t\tcase i%5 == 0:
\t\t\tw.WriteString("Buzz\\n")
\t\tdefault:
\t\t\tw.WriteString(strconv.Itoa(i) + "\\n")
\t\t}
\t}
"""),
"primes-up-to": program(["fmt", "strconv", "strings"], """\tn, _ := strconv.Atoi(next())
\tcomposite := make([]bool, n+1)
\tprimes := []string{}
\tfor i := 2; i <= n; i++ {
\t\tif composite[i] {
\t\t\tcontinue
\t\t}
\t\tprimes = append(primes, strconv.Itoa(i))
\t\tfor j := i * i; j <= n; j += i {
\t\t\tcomposite[j] = true
\t\t}
\t}
\tfmt.Println(strings.Join(primes, " "))
"""),
"matrix-transpose": program(["fmt", "strconv", "strings"], """\tr, _ := strconv.Atoi(next())
\tc, _ := strconv.Atoi(next())
\tm := make([]string, r*c)
\tfor i := range m {
\t\tm[i] = next()
\t}
\tfor j := 0; j < c; j++ {
\t\trow := make([]string, r)
\t\tfor i := 0; i < r; i++ {
\t\t\trow[i] = m[i*c+j]
\t\t}
\t\tfmt.Println(strings.Join(row, " "))
\t}
"""),
"gcd-lcm": program(["fmt", "strconv"], """\ta, _ := strconv.ParseInt(next(), 10, 64)
\tb, _ := strconv.ParseInt(next(), 10, 64)
\tx, y := a, b
\tfor y != 0 {
\t\tx, y = y, x%y
\t}
\tfmt.Println(x, a/x*b)
"""),
"factorial-mod": program(["fmt", "strconv"], """\tn, _ := strconv.ParseInt(next(), 10, 64)
\tconst mod = 1000000007
\tresult := int64(1)
\tfor i := int64(2); i <= n; i++ {
\t\tresult = result * i % mod
\t}
\tfmt.Println(result)
"""),
"palindrome": program(["fmt"], """\ts := next()
\tok := true
\tfor i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
\t\tif s[i] != s[j] {
\t\t\tok = false
\t\t}
\t}
\tif ok {
\t\tfmt.Println("YES")
\t} else {
\t\tfmt.Println("NO")
\t}
"""),
"letter-frequency": program(["fmt", "strings"], """\tcounts := [26]int{}
\tfor _, ch := range strings.ToLower(strings.SplitN(input, "\\n", 2)[0]) {
\t\tif ch >= 'a' && ch <= 'z' {
\t\t\tcounts[ch-'a']++
\t\t}
\t}
\tfor k, count := range counts {
\t\tif count > 0 {
\t\t\tfmt.Printf("%c %d\\n", 'a'+k, count)
\t\t}
\t}
""", "text"),
"binary": program(["fmt", "strconv"], """\tn, _ := strconv.ParseUint(next(), 10, 64)
\tfmt.Println(strconv.FormatUint(n, 2))
"""),
"word-count": program(["fmt", "strings"], """\tfmt.Println(len(strings.Fields(input)))
""", "text"),
"second-largest": program(["fmt", "sort", "strconv"], """\tn, _ := strconv.Atoi(next())
\tseen := map[int64]bool{}
\tfor i := 0; i < n; i++ {
\t\tx, _ := strconv.ParseInt(next(), 10, 64)
\t\tseen[x] = true
\t}
\tvalues := []int64{}
\tfor x := range seen {
\t\tvalues = append(values, x)
\t}
\tsort.Slice(values, func(i, j int) bool { return values[i] < values[j] })
\tif len(values) >= 2 {
\t\tfmt.Println(values[len(values)-2])
\t} else {
\t\tfmt.Println("NONE")
\t}
"""),
"fibonacci": program(["fmt", "strconv"], """\tn, _ := strconv.Atoi(next())
\ta, b := int64(0), int64(1)
\tfor i := 0; i < n; i++ {
\t\ta, b = b, a+b
\t}
\tfmt.Println(a)
"""),
"leap-years": program(["strconv"], """\tt, _ := strconv.Atoi(next())
\tw := bufio.NewWriter(os.Stdout)
\tdefer w.Flush()
\tfor i := 0; i < t; i++ {
\t\ty, _ := strconv.ParseInt(next(), 10, 64)
\t\tif y%4 == 0 && (y%100 != 0 || y%400 == 0) {
\t\t\tw.WriteString("YES\\n")
\t\t} else {
\t\t\tw.WriteString("NO\\n")
\t\t}
\t}
"""),
"prefix-sums": program(["fmt", "strconv", "strings"], """\tn, _ := strconv.Atoi(next())
\tout := make([]string, n)
\tvar total int64
\tfor i := range out {
\t\tx, _ := strconv.ParseInt(next(), 10, 64)
\t\ttotal += x
\t\tout[i] = strconv.FormatInt(total, 10)
\t}
\tfmt.Println(strings.Join(out, " "))
"""),
"anagram": program(["fmt", "sort", "strings"], """\tkey := func(w string) string {
\t\tletters := strings.Split(w, "")
\t\tsort.Strings(letters)
\t\treturn strings.Join(letters, "")
\t}
\tif key(next()) == key(next()) {
\t\tfmt.Println("YES")
\t} else {
\t\tfmt.Println("NO")
\t}
"""),
"digit-sum": program(["fmt"], """\ttotal := 0
\tfor _, d := range next() {
\t\ttotal += int(d - '0')
\t}
\tfmt.Println(total)
"""),
"count-distinct": program(["fmt", "strconv"], """\tn, _ := strconv.Atoi(next())
\tseen := map[string]bool{}
\tfor i := 0; i < n; i++ {
\t\tx, _ := strconv.ParseInt(next(), 10, 64)
\t\tseen[strconv.FormatInt(x, 10)] = true
\t}
\tfmt.Println(len(seen))
"""),
"collatz-steps": program(["fmt", "strconv"], """\tn, _ := strconv.ParseInt(next(), 10, 64)
\tsteps := 0
\tfor n != 1 {
\t\tif n%2 == 0 {
\t\t\tn /= 2
\t\t} else {
\t\t\tn = 3*n + 1
\t\t}
\t\tsteps++
\t}
\tfmt.Println(steps)
"""),
"max-subarray": program(["fmt", "strconv"], """\tn, _ := strconv.Atoi(next())
\tbest, _ := strconv.ParseInt(next(), 10, 64)
\tcurrent := best
\tfor i := 1; i < n; i++ {
\t\tx, _ := strconv.ParseInt(next(), 10, 64)
\t\tif current+x > x {
\t\t\tcurrent += x
\t\t} else {
\t\t\tcurrent = x
\t\t}
\t\tif current > best {
\t\t\tbest = current
\t\t}
\t}
\tfmt.Println(best)
"""),
"balanced-brackets": program(["fmt", "strings"], """\ts := strings.TrimSpace(strings.SplitN(input, "\\n", 2)[0])
\tpairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
\tstack := []rune{}
\tok := true
\tfor _, ch := range s {
\t\tif strings.ContainsRune("([{", ch) {
\t\t\tstack = append(stack, ch)
\t\t} else if len(stack) == 0 || stack[len(stack)-1] != pairs[ch] {
\t\t\tok = false
\t\t\tbreak
\t\t} else {
\t\t\tstack = stack[:len(stack)-1]
\t\t}
\t}
\tif ok && len(stack) == 0 {
\t\tfmt.Println("YES")
\t} else {
\t\tfmt.Println("NO")
\t}
""", "text"),
"roman-numerals": program(["fmt", "strconv", "strings"], """\tn, _ := strconv.Atoi(next())
\tvalues := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
\tsymbols := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
\tvar out strings.Builder
\tfor i, value := range values {
\t\tfor n >= value {
\t\t\tout.WriteString(symbols[i])
\t\t\tn -= value
\t\t}
\t}
\tfmt.Println(out.String())
"""),
"average": program(["fmt", "strconv"], """\tn, _ := strconv.Atoi(next())
\tvar total int64
\tfor i := 0; i < n; i++ {
\t\tx, _ := strconv.ParseInt(next(), 10, 64)
\t\ttotal += x
\t}
\tfmt.Printf("%.9f\\n", float64(total)/float64(n))
"""),
"distance-points": program(["fmt", "math", "strconv"], """\tv := make([]float64, 4)
\tfor i := range v {
\t\tv[i], _ = strconv.ParseFloat(next(), 64)
\t}
\tfmt.Printf("%.9f\\n", math.Hypot(v[2]-v[0], v[3]-v[1]))
"""),
"celsius-to-fahrenheit": program(["fmt", "strconv"], """\tn, _ := strconv.Atoi(next())
\tw := bufio.NewWriter(os.Stdout)
\tdefer w.Flush()
\tfor i := 0; i < n; i++ {
\t\tc, _ := strconv.ParseFloat(next(), 64)
\t\tfmt.Fprintf(w, "%.9f\\n", c*9/5+32)
\t}
"""),
"circle": program(["fmt", "math", "strconv"], """\tr, _ := strconv.ParseFloat(next(), 64)
\tfmt.Printf("%.9f %.9f\\n", math.Pi*r*r, 2*math.Pi*r)
"""),
"quadratic-roots": program(["fmt", "math", "strconv"], """\ta, _ := strconv.ParseFloat(next(), 64)
\tb, _ := strconv.ParseFloat(next(), 64)
\tc, _ := strconv.ParseFloat(next(), 64)
\td := math.Sqrt(b*b - 4*a*c)
\t// the numerically stable form: no cancellation between -b and d
\tq := -0.5 * (b + math.Copysign(d, b))
\tx1, x2 := q/a, c/q
\tfmt.Printf("%.9f %.9f\\n", math.Min(x1, x2), math.Max(x1, x2))
"""),
"mean-stddev": program(["fmt", "math", "strconv"], """\tn, _ := strconv.Atoi(next())
\txs := make([]float64, n)
\tsum := 0.0
\tfor i := range xs {
\t\txs[i], _ = strconv.ParseFloat(next(), 64)
\t\tsum += xs[i]
\t}
\tmean := sum / float64(n)
\tsquares := 0.0
\tfor _, x := range xs {
\t\tsquares += (x - mean) * (x - mean)
\t}
\tfmt.Printf("%.9f %.9f\\n", mean, math.Sqrt(squares/float64(n)))
"""),
"swap-case": program(["fmt", "strings"], """\tvar out strings.Builder
\tfor _, ch := range strings.SplitN(input, "\\n", 2)[0] {
\t\tswitch {
\t\tcase ch >= 'a' && ch <= 'z':
\t\t\tout.WriteRune(ch - 32)
\t\tcase ch >= 'A' && ch <= 'Z':
\t\t\tout.WriteRune(ch + 32)
\t\tdefault:
\t\t\tout.WriteRune(ch)
\t\t}
\t}
\tfmt.Println(out.String())
""", "text"),
"right-triangle": program(["fmt", "strconv", "strings"], """\tn, _ := strconv.Atoi(next())
\tfor i := 1; i <= n; i++ {
\t\tfmt.Println(strings.Repeat(" ", n-i) + strings.Repeat("*", i))
\t}
"""),
"diamond": program(["fmt", "strconv", "strings"], """\tn, _ := strconv.Atoi(next())
\tline := func(k int) { fmt.Println(strings.Repeat(" ", n-k) + strings.Repeat("*", 2*k-1)) }
\tfor k := 1; k <= n; k++ {
\t\tline(k)
\t}
\tfor k := n - 1; k >= 1; k-- {
\t\tline(k)
\t}
"""),
"multiplication-table": program(["fmt", "strconv", "strings"], """\tn, _ := strconv.Atoi(next())
\twidth := len(strconv.Itoa(n * n))
\tfor i := 1; i <= n; i++ {
\t\trow := make([]string, n)
\t\tfor j := 1; j <= n; j++ {
\t\t\trow[j-1] = fmt.Sprintf("%*d", width, i*j)
\t\t}
\t\tfmt.Println(strings.Join(row, " "))
\t}
"""),
"score-table": program(["fmt", "strconv"], """\tn, _ := strconv.Atoi(next())
\tnames, scores := make([]string, n), make([]string, n)
\tw, v := 0, 0
\tfor i := 0; i < n; i++ {
\t\tnames[i], scores[i] = next(), next()
\t\tif len(names[i]) > w {
\t\t\tw = len(names[i])
\t\t}
\t\tif len(scores[i]) > v {
\t\t\tv = len(scores[i])
\t\t}
\t}
\tfor i := 0; i < n; i++ {
\t\tfmt.Printf("%-*s | %*s\\n", w, names[i], v, scores[i])
\t}
"""),
"caesar-cipher": program(["fmt", "strconv", "strings"], """\tlines := strings.Split(input, "\\n")
\tk, _ := strconv.Atoi(strings.TrimSpace(lines[0]))
\tvar out strings.Builder
\tfor _, ch := range lines[1] {
\t\tswitch {
\t\tcase ch >= 'a' && ch <= 'z':
\t\t\tout.WriteRune((ch-'a'+rune(k))%26 + 'a')
\t\tcase ch >= 'A' && ch <= 'Z':
\t\t\tout.WriteRune((ch-'A'+rune(k))%26 + 'A')
\t\tdefault:
\t\t\tout.WriteRune(ch)
\t\t}
\t}
\tfmt.Println(out.String())
""", "text"),
"greeting": program(["fmt", "strings"], """\tname := strings.TrimRight(strings.SplitN(input, "\\n", 2)[0], "\\r")
\tfmt.Printf("Hello, %s!\\n", name)
""", "text"),
"csv-join": program(["fmt", "strconv", "strings"], """\tn, _ := strconv.Atoi(next())
\tvalues := make([]string, n)
\tfor i := range values {
\t\tvalues[i] = next()
\t}
\tfmt.Print(strings.Join(values, ",") + "\\n")
"""),
"seconds-to-clock": program(["fmt", "strconv"], """\ts, _ := strconv.Atoi(next())
\tfmt.Printf("%02d:%02d:%02d\\n", s/3600, s/60%60, s%60)
"""),
"date-iso": program(["fmt", "strconv", "strings"], """\tparts := strings.Split(strings.TrimSpace(input), "/")
\td, _ := strconv.Atoi(parts[0])
\tm, _ := strconv.Atoi(parts[1])
\ty, _ := strconv.Atoi(parts[2])
\tfmt.Printf("%04d-%02d-%02d\\n", y, m, d)
""", "text"),
}
