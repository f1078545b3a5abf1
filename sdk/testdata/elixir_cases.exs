# Generates sdk/testdata/elixir_cases.json: what Elixir 1.18.4 (OTP 25)
# answers for the Elixir behaviour both SDKs port beyond inspect/to_string/
# Jason text (DateTime parsing, ++, flat_map, MapSet.member?, Keyword and
# Map access, Map.new, String.trim, Enum.take, String.to_existing_atom,
# Jason.encode/1's {:error, _} against a raise; and, issue 42's second
# round, String.slice/3, PtcRunner's cut at a limit, Enum.sort_by/2,
# Enum.sort/1 of binaries, truthiness and Map.keys/1), on seeded random
# inputs.
# Both SDKs' tests hold their functions to this file. Run from the
# repository root with Jason and PtcRunner's consolidated protocols on the
# code path (their Protocol.UndefinedError messages list the
# implementations the reference platform has, LOOSE-1):
#
#   /work/builds/elixir/bin/elixir -pa .../_build/prod/lib/jason/ebin \
#     -pa .../_build/prod/lib/ptc_runner/consolidated sdk/testdata/elixir_cases.exs
#
# (/work/builds/adapter shows the paths). Inputs are terms of tagged term
# JSON (spec/terms.md), plus {"$improper": [items, tail]} for an improper
# list, which the term model cannot carry (JH-15). An answer is
# {"ok": term}, {"error": {"class", "message"}} (Jason.encode/1's
# {:error, exception}) or {"raised": {"class", "message"}}; a row with
# "gap" is one where the reference, and so the SDKs, knowingly differ from
# Elixir, the reason in the row.

defmodule Dot do
  # term.field compiled, as PtcRunner's code is (not evaluated).
  def a(t), do: t.a
  def name(t), do: t.name
  def map(t), do: t.map
end

defmodule Gen do
  @atoms [:a, :b, :name, :map, :ok, :error, nil, true, false, :"with space", :Elixir]
  @ws [" ", "\t", "\n", "\r", "\v", "\f", "\u0085", "\u00A0", "\u1680", "\u2000", "\u200A",
       "\u2028", "\u2029", "\u202F", "\u205F", "\u3000", "\u200B", "\u180E", "\uFEFF", "\u0000", "\u001C"]

  def pick(list), do: Enum.at(list, :rand.uniform(length(list)) - 1)
  def chance(p), do: :rand.uniform() < p

  def atom, do: pick(@atoms)
  def int, do: pick([0, 1, -1, 2, 3, 7, -5, 100, 2 ** 70, -(2 ** 64)])

  def scalar do
    case :rand.uniform(6) do
      1 -> atom()
      2 -> int()
      3 -> pick([1.5, -0.0, 2.0])
      4 -> pick(["x", "", "é", <<255>>])
      5 -> pick([{}, {:a}, {1, 2}])
      6 -> int()
    end
  end

  def term(0), do: scalar()

  def term(d) do
    case :rand.uniform(7) do
      1 -> for _ <- 1..:rand.uniform(3)//1, do: term(d - 1)
      2 -> Map.new(for _ <- 1..:rand.uniform(3)//1, do: {scalar(), term(d - 1)})
      3 -> MapSet.new(for _ <- 1..:rand.uniform(3)//1, do: scalar())
      4 -> kw_item(d - 1)
      _ -> scalar()
    end
  end

  def kw_item(d) do
    case :rand.uniform(8) do
      1 -> {atom()}
      2 -> {atom(), term(d), term(d)}
      3 -> scalar()
      4 -> {scalar(), term(d)}
      _ -> {atom(), term(d)}
    end
  end

  def kw, do: for(_ <- 0..:rand.uniform(4)//1, do: kw_item(1)) |> Enum.drop(1)

  def listish do
    case :rand.uniform(8) do
      1 -> improper()
      2 -> scalar()
      3 -> %{a: 1}
      _ -> for(_ <- 0..:rand.uniform(3)//1, do: scalar()) |> Enum.drop(1)
    end
  end

  def improper do
    items = for _ <- 1..:rand.uniform(3)//1, do: scalar()
    tail = pick([1, :x, "t", {1}, %{}])
    Enum.reduce(Enum.reverse(items), tail, fn x, acc -> [x | acc] end)
  end

  def mapish do
    case :rand.uniform(6) do
      1 -> scalar()
      2 -> MapSet.new([atom()])
      3 -> [a: 1]
      _ -> Map.new(for _ <- 0..:rand.uniform(3)//1, do: {pick([atom(), scalar()]), scalar()})
    end
  end

  def trim_text do
    parts = for _ <- 0..:rand.uniform(6)//1, do: pick(@ws ++ ["a", "é", "\u{1F600}", " b ", <<0xC3>>, <<0xFF>>])
    Enum.join(parts)
  end

  # Each part valid most of the time, so that most texts parse and each
  # refusal is met alone.
  def part(good, bad), do: if(chance(0.88), do: pick(good), else: pick(bad))

  def datetime_text do
    y = part(["2024", "0000", "9999", "1900", "2000", "2023", "-0001", "+2024"], ["24", "20x4", "+-202"])
    mo = part(["01", "02", "03", "12"], ["13", "00", "1"])
    d = part(["01", "28", "29", "31", "15"], ["30", "32", "00"])
    sep = part(["T", " "], ["t", "_"])
    h = part(["00", "23", "12", "01"], ["24", "+1", "1"])
    mi = part(["00", "59", "30"], ["60", "5"])
    s = part(["00", "59", "07"], ["60", "6"])
    frac = part(["", "", ".1", ",123", ".1234567", ".000000", ".123456"], [".", ".5Z", ".x"])
    off = part(["Z", "+00:00", "+02:30", "-0530", "+01", "-12", "+23:59", "-11:45", "+1400", "+-1:00", "-+1"],
               ["-00:00", "-00", "-0000", "+24:00", "+1:00", "", "z", "+02:3", "+0230x", "+00:60", "+1"])
    Enum.join([y, "-", mo, "-", d, sep, h, ":", mi, ":", s, frac, off])
  end

  def jason_term(d) do
    case :rand.uniform(9) do
      1 -> %{pick([{1}, [1, [2]], [:a], ~c"ab", 1.5, 7, "k", :k, nil, <<255>>, ["a", 97]]) => term(0)}
      2 -> %{"a" => jason_term(d - 1)}
      3 -> [jason_term(d - 1), scalar()]
      4 -> pick([{1}, <<255>>, "ok", 1.5, :a, MapSet.new([1]), ~D[2024-01-02]])
      5 -> %{pick(["x", :y]) => pick([<<0xC3, 0x28>>, {:t}, "fine"])}
      _ -> scalar()
    end
  end
end

defmodule Cases do
  def enc(nil), do: nil
  def enc(b) when is_boolean(b), do: b
  def enc(a) when is_atom(a), do: %{"$atom" => Atom.to_string(a)}
  def enc(n) when is_integer(n) and abs(n) <= 9_007_199_254_740_991, do: n
  def enc(n) when is_integer(n), do: %{"$int" => Integer.to_string(n)}
  def enc(x) when is_float(x), do: %{"$float" => x}

  def enc(b) when is_binary(b) do
    if String.valid?(b), do: b, else: %{"$bytes" => Base.encode64(b)}
  end

  def enc(t) when is_tuple(t), do: %{"$tuple" => t |> Tuple.to_list() |> Enum.map(&enc/1)}
  def enc(%MapSet{} = s), do: %{"$struct" => %{"module" => "MapSet", "fields" => %{"map" => %{"$map" => s |> MapSet.to_list() |> Enum.map(&[enc(&1), []])}}}}
  def enc(%Date{} = d), do: %{"$date" => Date.to_iso8601(d)}
  def enc(m) when is_map(m), do: %{"$map" => Enum.map(m, fn {k, v} -> [enc(k), enc(v)] end)}

  def enc(l) when is_list(l) do
    case proper(l, []) do
      {:proper, items} -> Enum.map(items, &enc/1)
      {:improper, items, tail} -> %{"$improper" => [Enum.map(items, &enc/1), enc(tail)]}
    end
  end

  defp proper([], acc), do: {:proper, Enum.reverse(acc)}
  defp proper([h | t], acc), do: proper(t, [h | acc])
  defp proper(tail, acc), do: {:improper, Enum.reverse(acc), tail}

  def answer(fun) do
    try do
      %{"ok" => enc(fun.())}
    rescue
      e -> %{"raised" => %{"class" => e.__struct__ |> inspect(), "message" => Exception.message(e)}}
    end
  end

  def row(fun, args, f), do: Map.merge(%{"fun" => fun, "args" => Enum.map(args, &enc/1)}, answer(f))
end

:rand.seed(:exsss, {34, 34, 34})
n = 400

rows =
  Enum.flat_map(1..n, fn _ ->
    l = Gen.listish()
    r = Gen.listish()
    results = for _ <- 1..:rand.uniform(3)//1, do: Gen.pick([[1], [], Gen.improper(), %{a: 1}, [2, 3], MapSet.new([:m])])
    elements = Enum.to_list(0..(length(results) - 1))
    kw = if Gen.chance(0.85), do: Gen.kw(), else: Gen.scalar()
    key = Gen.atom()
    keys = for _ <- 0..:rand.uniform(2)//1, do: Gen.atom()
    m = Gen.mapish()
    field = Gen.pick([:a, :name, :map])
    mk = Gen.pick([Gen.atom(), Gen.scalar()])
    set = if Gen.chance(0.8), do: MapSet.new(for(_ <- 0..:rand.uniform(3)//1, do: Gen.scalar())), else: Gen.pick([%{a: 1}, [1], :x])
    pairs = Gen.pick([for(_ <- 0..:rand.uniform(3)//1, do: {Gen.scalar(), Gen.scalar()}), Gen.kw(), Gen.improper(), %{b: 2}, MapSet.new([{:a, 1}]), MapSet.new([1]), [{1, 2}, {1, 3}], 5])
    take_list = Gen.pick([[], [1], [1, 2, 3], [:a, :b, :c, :d, :e], %{a: 1, b: 2}])
    count = Gen.pick([0, 1, 2, -1, -2, 10, -10, 2 ** 70, -(2 ** 70), 1.0, :a])
    name = Gen.pick(["ok", "error", "nil", "true", "name", "zq_no_such_atom_#{:rand.uniform(1000)}", <<255>>, String.duplicate("a", 256), "", "Elixir.Map", "__struct__"])
    jt = Gen.jason_term(2)

    [
      Cases.row("append", [l, r], fn -> l ++ r end),
      Cases.row("flat_map", [elements, results], fn -> Enum.flat_map(elements, &Enum.at(results, &1)) end),
      Cases.row("mapset_member", [set, mk], fn -> MapSet.member?(set, mk) end),
      Cases.row("keyword_get", [kw, key], fn -> Keyword.get(kw, key) end),
      Cases.row("keyword_fetch", [kw, key], fn -> Keyword.fetch(kw, key) end),
      Cases.row("keyword_fetch!", [kw, key], fn -> Keyword.fetch!(kw, key) end),
      Cases.row("keyword_take", [kw, keys], fn -> Keyword.take(kw, keys) end),
      Cases.row("map_get", [m, mk], fn -> Map.get(m, mk) end),
      Cases.row("map_has_key", [m, mk], fn -> Map.has_key?(m, mk) end),
      Cases.row("dot", [m, field], fn -> apply(Dot, field, [m]) end),
      Cases.row("map_new", [pairs], fn -> Map.new(pairs) end),
      Cases.row("trim", [Gen.trim_text()], fn -> nil end),
      Cases.row("take", [take_list, count], fn -> Enum.take(take_list, count) end),
      Cases.row("to_existing_atom", [name], fn -> String.to_existing_atom(name) end),
      Cases.row("datetime", [Gen.datetime_text()], fn -> nil end),
      Cases.row("jason_encode", [jt], fn -> nil end)
    ]
  end)

# The rows whose answer needs their own argument.
rows =
  Enum.map(rows, fn
    %{"fun" => "trim", "args" => [s]} = row ->
      s = if is_map(s), do: Base.decode64!(s["$bytes"]), else: s
      Map.merge(row, Cases.answer(fn -> String.trim(s) end))

    %{"fun" => "datetime", "args" => [s]} = row ->
      Map.merge(row, Cases.answer(fn ->
        case DateTime.from_iso8601(s) do
          {:ok, dt, _offset} -> DateTime.to_iso8601(dt)
          {:error, _} -> nil
        end
      end))

    row -> row
  end)

# Jason: regenerate with the term kept, as the args were encoded already.
:rand.seed(:exsss, {34, 35, 36})
jason =
  for _ <- 1..(2 * n) do
    t = Gen.jason_term(2)
    row = %{"fun" => "jason_encode", "args" => [Cases.enc(t)]}
    try do
      case Jason.encode(t) do
        {:ok, text} -> Map.put(row, "ok", text)
        {:error, e} -> Map.put(row, "error", %{"class" => inspect(e.__struct__), "message" => Exception.message(e)})
      end
    rescue
      e -> Map.put(row, "raised", %{"class" => inspect(e.__struct__), "message" => Exception.message(e)})
    end
  end

# Issue 42's second round, with a seed of its own so that the rows above
# stay as they were: String.slice/3 with its guards on binaries that need
# not be UTF-8, PtcRunner's `if String.length(s) > limit, do:
# {String.slice(s, 0, limit), true}, else: {s, false}` with any term as the
# limit (PP-105), Enum.sort_by/2 by term order with ties (1 and 1.0),
# Enum.sort/1 of binaries (byte order), truthiness, Map.keys/1.
defmodule Gen2 do
  import Gen, only: [pick: 1, chance: 1]

  @pieces ["a", "b", "é", "e\u0301", "\r\n", "\r", "\n", "\u{1F600}", "\u{1F468}\u200D\u{1F469}", "\u{1F1EB}\u{1F1F7}",
           "\u1100\u1161\u11A8", "\uAC00", "\u0915\u094D", "\u200D", "\uFFFF", "\u{10000}", "\uE000",
           <<0xFF>>, <<0xC3>>, <<0xE2, 0x82>>, <<0x80>>]

  def text, do: Enum.map_join(0..:rand.uniform(8)//1, fn _ -> pick(@pieces) end) |> drop_one()
  defp drop_one(s), do: if(chance(0.15), do: "", else: s)

  def count, do: pick([0, 1, 2, 3, 5, 100, -1, -2, -3, -100, 2 ** 70, -(2 ** 70)])
  def limit, do: pick([0, 1, 2, 3, 4, 7, -1, 2 ** 70, -(2 ** 70), 2.0, 2.5, -1.0, 0.0, 1.0e300, :a, nil, true, "3", ~c"3", {3}, %{}])

  @keys [1, 1.0, 0, 0.0, -0.0, 2, 1.5, {1}, {1.0}, [1], [1.0], %{1 => 1}, %{1.0 => 1}, "a", "é", <<0xFF>>, :a, nil, true]

  def sort_input do
    pairs = for i <- 0..:rand.uniform(6)//1, do: {i, pick(@keys)}
    case :rand.uniform(8) do
      1 -> Map.new(pairs, fn {i, k} -> {k, i} end) |> Map.new(fn {k, i} -> {i, k} end)
      2 -> MapSet.new(pairs)
      3 -> pick([5, :a, "x", {1, 2}])
      _ -> pairs
    end
  end

  @binaries ["", "a", "ab", "b", "é", "e", "\uFFFF", "\u{10000}", "\uE000", "\u{1F600}", <<0xFF>>, <<0xC3>>, <<0xFF, 0>>, "a" <> <<0xFF>>, "\u0000"]
  def binaries, do: for(_ <- 0..:rand.uniform(6)//1, do: pick(@binaries))

  def mapish do
    case :rand.uniform(8) do
      1 -> MapSet.new([Gen.atom(), Gen.scalar()])
      2 -> ~D[2024-01-02]
      3 -> pick([[a: 1], 5, "m", nil, {:a, 1}])
      _ -> Map.new(for _ <- 0..:rand.uniform(5)//1, do: {pick(@keys ++ [Gen.atom(), Gen.scalar()]), Gen.scalar()})
    end
  end
end

:rand.seed(:exsss, {42, 42, 42})

round2 =
  Enum.flat_map(1..n, fn _ ->
    s = if Gen.chance(0.95), do: Gen2.text(), else: Gen.pick([5, :a, ~c"ab", nil])
    start = if Gen.chance(0.9), do: Gen2.count(), else: Gen.pick([1.0, :a, nil])
    len = if Gen.chance(0.85), do: Gen2.count(), else: Gen.pick([1.0, 0.0, :a, nil])
    text = Gen2.text()
    limit = Gen2.limit()
    sortable = Gen2.sort_input()
    bins = Gen2.binaries()
    t = Gen.term(2)
    m = Gen2.mapish()

    [
      Cases.row("string_slice", [s, start, len], fn -> String.slice(s, start, len) end),
      Cases.row("cut", [text, limit], fn ->
        if String.length(text) > limit, do: {String.slice(text, 0, limit), true}, else: {text, false}
      end),
      Cases.row("sort_by", [sortable], fn -> Enum.sort_by(sortable, fn {_, k} -> k end) end),
      Cases.row("sort_binaries", [bins], fn -> Enum.sort(bins) end),
      Cases.row("truthy", [t], fn -> if(t, do: true, else: false) end),
      Cases.row("map_keys", [m], fn -> Map.keys(m) end)
    ]
  end)

# OTP 25's :unicode_util.gc/1 raises badarg (ArgumentError "argument
# error") where an extended pictographic cluster is directly followed by an
# invalid byte (<<"\u{1F600}", 255>>, <<"\u00A9", 255>>); the reference and
# spec PP-105 count that byte as a cluster of its own, and the SDKs follow
# the reference. Such rows say so in "gap", and the SDKs' tests hold them
# to the reference's reading instead (a gap of the reference, issue 42).
gap = "OTP 25's :unicode_util.gc/1 raises badarg for an extended pictographic cluster directly followed by an invalid byte; the reference (PP-105) counts the byte as a cluster"

round2 =
  Enum.map(round2, fn
    %{"fun" => f, "raised" => %{"class" => "ArgumentError"}} = row when f in ["string_slice", "cut"] -> Map.put(row, "gap", gap)
    row -> row
  end)

rows = Enum.reject(rows, &(&1["fun"] == "jason_encode")) ++ jason ++ round2

out =
  "{\"about\": \"Elixir 1.18.4 (OTP 25, Jason 1.4) on seeded random inputs, generated by sdk/testdata/elixir_cases.exs, which says how to read it.\",\n \"cases\": [\n" <>
    Enum.map_join(rows, ",\n", &("  " <> Jason.encode!(&1))) <> "\n]}\n"

File.write!("sdk/testdata/elixir_cases.json", out)
IO.puts("#{length(rows)} cases")
