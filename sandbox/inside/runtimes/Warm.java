// The program whose loading decides what the JVM's class-data sharing archives hold (build.sh): it
// does once what programs of competitive programming and of the bundled suites do most (read input
// in the common ways, parse, format, sort, use the collections, streams, lambdas, string concatenation,
// big numbers, a thread with a large stack), so that the JDK classes they load, and the method-handle
// forms behind lambdas and string concatenation, come mapped from the archive instead of parsed from
// the runtime image in each test's JVM. javac compiling this file decides javac's archive the same way.
// Only JDK classes go into the archives (a job's own classes are new each time).

import java.io.*;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.function.*;
import java.util.regex.*;
import java.util.stream.*;

public class Warm {
    record Pair(int first, long second) implements Comparable<Pair> {
        public int compareTo(Pair o) { return first != o.first ? Integer.compare(first, o.first) : Long.compare(second, o.second); }
    }

    enum Kind { SMALL, LARGE }

    interface Shape { double area(); }

    static final class Circle implements Shape {
        private final double r;
        Circle(double r) { this.r = r; }
        public double area() { return Math.PI * r * r; }
    }

    static class Problem extends RuntimeException {
        Problem(String message) { super(message); }
    }

    static int depth(int n) { return n == 0 ? 0 : 1 + depth(n - 1); }

    public static void main(String[] args) throws Exception {
        byte[] bytes = System.in.readAllBytes();
        String input = new String(bytes, StandardCharsets.UTF_8);
        String[] lines = input.split("\n");

        // the ways programs read their input
        Scanner scanner = new Scanner(new ByteArrayInputStream(bytes));
        int n = scanner.nextInt();
        long[] values = new long[n];
        for (int i = 0; i < n; i++) values[i] = scanner.nextLong();
        scanner.nextLine();
        String word = scanner.next();
        double real = scanner.nextDouble();
        boolean more = scanner.hasNext();
        BufferedReader reader = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(bytes), StandardCharsets.UTF_8));
        StringTokenizer tokens = new StringTokenizer(reader.readLine());
        int count = Integer.parseInt(tokens.nextToken());
        StreamTokenizer stream = new StreamTokenizer(new BufferedReader(new StringReader(lines[2])));
        stream.nextToken();
        double first = stream.nval;
        DataInputStream data = new DataInputStream(new BufferedInputStream(new ByteArrayInputStream(bytes), 1 << 16));
        int firstByte = data.read();

        // the ways programs write their output
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        StringBuilder sb = new StringBuilder();
        sb.append(count).append(' ').append(first).append('\n');
        out.print(sb);
        out.printf("%d %s %.3f %5.2f %x %08d %-4s|%n", n, word, real, first, 255, 42, "ab");
        out.println(String.format(Locale.US, "%.6f %e %,d", Math.sqrt(2), 12345.678, 1234567));
        out.println("concat " + n + " " + real + " " + word + " " + more + " " + firstByte + " " + 'c');
        out.println(String.join(",", "a", "b") + " " + String.valueOf(1.5) + " " + Double.toString(1e-9) + " " + Float.toString(2.5f));
        System.out.print("");
        System.out.flush();

        // sorting, searching, filling
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int[] ints = new int[64];
        for (int i = 0; i < ints.length; i++) ints[i] = (i * 37) % 64;
        Arrays.sort(ints);
        Integer[] boxed = new Integer[64];
        for (int i = 0; i < boxed.length; i++) boxed[i] = (i * 13) % 64;
        Arrays.sort(boxed, Collections.reverseOrder());
        Arrays.sort(boxed, (a, b) -> a - b);
        double[] reals = {3.5, 1.25, 2.0};
        Arrays.sort(reals);
        char[] chars = word.toCharArray();
        Arrays.sort(chars);
        String[] words = {"pear", "apple", "fig"};
        Arrays.sort(words);
        Arrays.sort(words, Comparator.comparing(String::length).thenComparing(Comparator.reverseOrder()));
        int[][] grid = new int[8][8];
        for (int[] row : grid) Arrays.fill(row, -1);
        out.println(Arrays.toString(sorted) + Arrays.binarySearch(ints, 5) + Arrays.deepToString(grid).length()
                    + Arrays.toString(boxed).length() + new String(chars) + Arrays.asList(words) + Arrays.stream(ints).sum()
                    + Arrays.equals(ints, ints.clone()) + Arrays.hashCode(ints) + Arrays.copyOfRange(ints, 1, 3).length);

        // the collections
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 100; i++) list.add(i % 17);
        Collections.sort(list);
        Collections.reverse(list);
        Collections.swap(list, 0, 1);
        Collections.shuffle(list, new Random(1));
        List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < 20; i++) pairs.add(new Pair(i % 5, i));
        Collections.sort(pairs);
        pairs.sort(Comparator.comparingInt(Pair::first).thenComparingLong(Pair::second).reversed());
        Map<String, Integer> hash = new HashMap<>();
        for (String w : words) hash.merge(w, 1, Integer::sum);
        hash.put("x", hash.getOrDefault("x", 0) + 1);
        hash.computeIfAbsent("y", k -> 7);
        TreeMap<Integer, String> tree = new TreeMap<>();
        for (int i = 0; i < 10; i++) tree.put(i * 3, "v" + i);
        Map.Entry<Integer, String> floor = tree.floorEntry(10);
        Integer ceiling = tree.ceilingKey(11);
        NavigableMap<Integer, String> head = tree.headMap(9, true);
        Set<Integer> set = new HashSet<>(list);
        TreeSet<Long> treeSet = new TreeSet<>();
        for (long v : values) treeSet.add(v);
        Long lower = treeSet.lower(5L);
        LinkedHashMap<String, Integer> linked = new LinkedHashMap<>(hash);
        LinkedHashSet<String> linkedSet = new LinkedHashSet<>(Arrays.asList(words));
        PriorityQueue<long[]> heap = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        for (long v : values) heap.add(new long[] {v, v * 2});
        PriorityQueue<Integer> maxHeap = new PriorityQueue<>(Collections.reverseOrder());
        maxHeap.addAll(list);
        ArrayDeque<Integer> deque = new ArrayDeque<>();
        deque.offerFirst(1);
        deque.offerLast(2);
        deque.push(3);
        LinkedList<Integer> linkedList = new LinkedList<>(list.subList(0, 5));
        linkedList.removeFirst();
        Stack<Integer> stack = new Stack<>();
        stack.push(4);
        Vector<Integer> vector = new Vector<>(List.of(1, 2, 3));
        BitSet bits = new BitSet(128);
        bits.set(3);
        bits.set(64, 70);
        EnumMap<Kind, Integer> enumMap = new EnumMap<>(Kind.class);
        enumMap.put(Kind.SMALL, 1);
        Iterator<Integer> it = set.iterator();
        while (it.hasNext()) if (it.next() % 2 == 0) it.remove();
        Map<Integer, List<Integer>> graph = new HashMap<>();
        for (int i = 0; i < 10; i++) graph.computeIfAbsent(i % 3, k -> new ArrayList<>()).add(i);
        out.println(list.size() + " " + pairs.get(0) + " " + hash + floor + ceiling + head.size() + set.size() + lower
                    + linked.keySet() + linkedSet + heap.poll()[1] + maxHeap.peek() + deque.pollLast() + deque.peekFirst()
                    + linkedList.getLast() + stack.pop() + vector.get(1) + bits.cardinality() + bits.nextSetBit(4)
                    + enumMap + Collections.max(list) + Collections.min(list) + Collections.frequency(list, 3)
                    + List.of(1, 2).size() + Set.of(3).size() + Map.of(1, 2).size() + Collections.nCopies(3, 0)
                    + Collections.emptyList() + Collections.unmodifiableList(list).size() + graph);

        // streams and lambdas
        List<String> mapped = list.stream().filter(x -> x > 3).map(x -> "n" + x).distinct().sorted().collect(Collectors.toList());
        Map<Integer, Long> groups = list.stream().collect(Collectors.groupingBy(x -> x % 3, Collectors.counting()));
        String joined = IntStream.rangeClosed(1, 5).mapToObj(Integer::toString).collect(Collectors.joining(" "));
        long total = LongStream.of(values).map(v -> v * v).sum();
        OptionalInt best = IntStream.of(ints).max();
        double average = Arrays.stream(reals).average().orElse(0);
        int[] squares = IntStream.range(0, 10).map(i -> i * i).toArray();
        List<Integer> boxedList = Arrays.stream(ints).boxed().collect(Collectors.toList());
        Set<Character> letters = word.chars().mapToObj(c -> (char) c).collect(Collectors.toSet());
        Optional<String> longest = Stream.of(words).max(Comparator.comparingInt(String::length));
        Function<Integer, Integer> twice = x -> x * 2;
        BiFunction<Integer, Integer, Integer> plus = Integer::sum;
        Supplier<List<Integer>> fresh = ArrayList::new;
        Predicate<String> empty = String::isEmpty;
        UnaryOperator<String> upper = String::toUpperCase;
        IntBinaryOperator max = Math::max;
        Consumer<String> sink = s -> { };
        sink.accept("x");
        Runnable task = () -> { };
        task.run();
        out.println(mapped + " " + groups + " " + joined + " " + total + " " + best.getAsInt() + " " + average + " "
                    + squares.length + boxedList.size() + letters.size() + longest.get() + twice.andThen(twice).apply(3)
                    + plus.apply(1, 2) + fresh.get().size() + empty.negate().test("a") + upper.apply("b")
                    + max.applyAsInt(1, 2) + list.stream().mapToInt(Integer::intValue).summaryStatistics().getMax()
                    + Stream.iterate(1, x -> x * 3).limit(5).reduce(0, Integer::sum));

        // strings, characters, numbers
        String text = lines[0].trim();
        out.println(text.length() + text.substring(0, 1) + text.indexOf(' ') + text.lastIndexOf('1') + text.contains("3")
                    + text.startsWith("3") + text.endsWith("x") + text.replace(' ', '_') + text.replaceAll("\\s+", ",")
                    + text.toUpperCase() + text.toLowerCase() + text.isEmpty() + text.isBlank() + text.strip() + "ab".repeat(3)
                    + text.charAt(0) + text.compareTo("2") + text.equalsIgnoreCase("X") + Arrays.toString(text.split(" "))
                    + text.hashCode() + String.valueOf(new char[] {'h', 'i'}) + new StringBuilder(text).reverse()
                    + Character.isDigit('5') + Character.isLetter('a') + Character.isLetterOrDigit('_')
                    + Character.isWhitespace(' ') + Character.isUpperCase('A') + Character.toUpperCase('q')
                    + Character.getNumericValue('7') + (char) ('a' + 2) + Integer.toBinaryString(10) + Integer.toHexString(255)
                    + Integer.parseInt("ff", 16) + Integer.valueOf(7).equals(7) + Integer.bitCount(255) + Long.numberOfTrailingZeros(8)
                    + Integer.MAX_VALUE + Long.MIN_VALUE + Long.parseLong("-12") + Double.parseDouble("2.5") + Math.abs(-3)
                    + Math.max(2L, 3L) + Math.min(1.5, 2.5) + Math.pow(2, 10) + Math.floorMod(-7, 3) + Math.floorDiv(-7, 2)
                    + Math.round(2.5) + Math.ceil(1.2) + Math.floor(1.8) + Math.log(10) + Math.log10(1000) + Math.hypot(3, 4)
                    + Math.sin(1) + Math.atan2(1, 1) + Math.exp(1) + Math.cbrt(27) + Math.toIntExact(5L) + Math.addExact(1, 2)
                    + Long.compare(1, 2) + Integer.signum(-5) + Double.compare(0.1, 0.2) + Double.isNaN(0.0 / 0.0)
                    + Long.toString(123456789L, 36) + Integer.reverse(1) + Integer.highestOneBit(100) + (int) 3.9 + (long) 1e18);
        Pattern pattern = Pattern.compile("(\\d+)-(\\w+)");
        Matcher matcher = pattern.matcher("12-ab 34-cd");
        while (matcher.find()) out.print(matcher.group(1) + matcher.group(2));
        out.println(Pattern.matches("[a-z]+", "abc"));

        BigInteger big = BigInteger.valueOf(values[0]).pow(20).add(BigInteger.ONE).multiply(new BigInteger("123456789012345678901234567890"));
        BigInteger mod = big.mod(BigInteger.valueOf(1_000_000_007)).modPow(BigInteger.TWO, BigInteger.valueOf(998244353));
        BigDecimal decimal = new BigDecimal("1.10").add(BigDecimal.valueOf(2.205)).setScale(2, RoundingMode.HALF_UP);
        out.println(big + " " + mod + " " + big.gcd(mod) + " " + big.isProbablePrime(10) + " " + decimal + " "
                    + decimal.divide(BigDecimal.valueOf(3), 10, RoundingMode.HALF_EVEN).toPlainString() + " " + big.bitLength());

        // objects: records, enums, interfaces, exceptions, switch on strings, hashing, random
        Shape shape = new Circle(2);
        Kind kind = Kind.valueOf("LARGE");
        switch (word) {
            case "alpha" -> out.println("alpha " + kind.ordinal());
            default -> out.println("other " + kind.name() + Kind.values().length);
        }
        try {
            if (values.length > 0) throw new Problem("checked " + values.length);
        } catch (Problem e) {
            out.println(e.getMessage() + " " + e.getClass().getSimpleName());
        }
        try {
            Object nothing = null;
            nothing.hashCode();
        } catch (NullPointerException e) {
            out.println("npe " + (e.getMessage() != null));
        }
        try {
            int[] small = new int[1];
            small[values.length + 1] = 1;
        } catch (ArrayIndexOutOfBoundsException e) {
            out.println("bounds " + e.getMessage());
        }
        try {
            Integer.parseInt("x");
        } catch (NumberFormatException e) {
            out.println("format");
        }
        Random random = new Random(42);
        long seed = System.nanoTime() ^ System.currentTimeMillis();
        out.println(shape.area() + " " + Objects.hash(1, "a") + " " + Objects.equals(null, null) + " " + random.nextInt(100)
                    + " " + random.nextLong() + " " + random.nextDouble() + " " + (seed != 1) + " " + new Pair(1, 2).hashCode()
                    + " " + Optional.ofNullable(null).isPresent() + " " + Optional.of(3).map(x -> x + 1).orElse(0));

        // deep recursion on a thread with a large stack, as many programs do
        int[] result = new int[1];
        Thread thread = new Thread(null, () -> result[0] = depth(20000), "deep", 1 << 26);
        thread.start();
        thread.join();
        out.println(result[0]);
        out.flush();
        if (out.checkError()) System.exit(1);
    }
}
