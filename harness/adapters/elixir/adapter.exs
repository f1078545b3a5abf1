# ptc-conformance adapter for the real PtcRunner (Elixir), protocol v1.
#
#     elixir -pa <ptc_runner ebin> -pa <jason ebin> ... harness/adapters/elixir/adapter.exs
#
# JSON Lines on stdin/stdout, one answer line per request line, logs on
# stderr. Needs Elixir >= 1.18 (stdlib JSON) and a compiled PtcRunner on the
# code path. See README.md next to this file.

defmodule PtcAdapter.Codec do
  @moduledoc false
  # Tagged term JSON <-> Elixir terms (table in DESIGN.md / spec).
  #
  # decode/1 takes parsed JSON in which objects are {:obj, [{key, value}]}
  # (see PtcAdapter.parse_json/1), so tags and duplicate keys stay visible.
  # encode/1 returns JSON data for to_json/1: maps with string keys (the
  # tags), {:object, pairs} (an object written in that order), lists,
  # numbers, strings and nil/true/false.
  # A term that cannot be decoded throws {:bad_term, message}.

  @max_plain_int 9_007_199_254_740_991

  # ---- decoding --------------------------------------------------------

  def decode({:obj, [{"$" <> _ = tag, value}]}), do: decode_tag(tag, value)

  def decode({:obj, pairs}) do
    keys = Enum.map(pairs, &elem(&1, 0))

    if Enum.any?(keys, &String.starts_with?(&1, "$")),
      do: bad!("object mixes a $-key with other keys: #{inspect(keys)}")

    unique_keys!(keys)
    Map.new(pairs, fn {k, v} -> {k, decode(v)} end)
  end

  def decode(list) when is_list(list), do: Enum.map(list, &decode/1)

  def decode(n) when is_integer(n) and abs(n) > @max_plain_int,
    do: bad!("bare integer #{n} is beyond 2^53-1: it is written {\"$int\": \"#{n}\"} (TJ-3)")
  def decode(x) when is_float(x), do: bad!("untagged float #{x}; use {\"$float\": ...}")
  def decode({:bad_float, text}), do: bad!("float out of range: #{text}")
  # nil, true, false, integers, strings
  def decode(x), do: x

  defp decode_tag("$int", s) when is_binary(s) do
    if s =~ ~r/^-?[0-9]+$/, do: String.to_integer(s), else: bad!("bad $int #{inspect(s)}")
  end

  defp decode_tag("$float", x) when is_float(x), do: x
  defp decode_tag("$float", n) when is_integer(n), do: n * 1.0
  defp decode_tag("$float", {:bad_float, text}), do: bad!("float out of range: #{text}")

  defp decode_tag("$bytes", s) when is_binary(s) do
    case Base.decode64(s) do
      {:ok, bin} -> bin
      :error -> bad!("bad base64 in $bytes")
    end
  end

  defp decode_tag("$atom", s) when is_binary(s), do: atom!(s)
  defp decode_tag("$tuple", l) when is_list(l), do: l |> Enum.map(&decode/1) |> List.to_tuple()

  defp decode_tag("$kw", l) when is_list(l) do
    Enum.map(l, fn
      [k, v] when is_binary(k) -> {atom!(k), decode(v)}
      other -> bad!("bad $kw entry #{inspect(other)}")
    end)
  end

  defp decode_tag("$map", l) when is_list(l) do
    pairs =
      Enum.map(l, fn
        [k, v] -> {decode(k), decode(v)}
        other -> bad!("bad $map entry #{inspect(other)}")
      end)

    unique_keys!(Enum.map(pairs, &elem(&1, 0)))
    Map.new(pairs)
  end

  defp decode_tag(tag, s) when tag in ~w($date $time $naive_datetime $datetime) and is_binary(s),
    do: decode_temporal(tag, s)

  defp decode_tag("$struct", spec), do: decode_struct(spec)
  defp decode_tag("$fn", spec), do: decode_fn(spec)
  defp decode_tag("$ref", label) when is_binary(label), do: opaque(:ref, label)
  defp decode_tag("$pid", label) when is_binary(label), do: opaque(:pid, label)
  defp decode_tag("$port", label) when is_binary(label), do: opaque(:port, label)

  defp decode_tag(tag, value) do
    known = ~w($int $float $bytes $atom $tuple $kw $map $date $time $naive_datetime
               $datetime $struct $fn $ref $pid $port)

    if tag in known,
      do: bad!("malformed #{tag}: #{inspect(value)}"),
      else: bad!("unknown tag #{tag}")
  end

  # spec/terms.md TJ-6: exactly the text Calendar.ISO's to_iso8601/1 writes,
  # any year of at most nine digits (from_iso8601/1 reads only four, so the
  # text is read here). "...Z" is a UTC DateTime; "...+02:00" keeps the
  # written wall clock with utc_offset 7200, std_offset 0 and time_zone =
  # zone_abbr = "+02:00" (TJ-11), so to_iso8601/1 gives the same text back.
  @year "(-?)(\\d{4}|[1-9]\\d{4,8})-(\\d\\d)-(\\d\\d)"
  @time "(\\d\\d):(\\d\\d):(\\d\\d)(?:\\.(\\d{1,6}))?"
  @temporal_res %{
    "$date" => Regex.compile!("\\A" <> @year <> "\\z"),
    "$time" => Regex.compile!("\\A" <> @time <> "\\z"),
    "$naive_datetime" => Regex.compile!("\\A" <> @year <> "T" <> @time <> "\\z"),
    "$datetime" =>
      Regex.compile!("\\A" <> @year <> "T" <> @time <> "(Z|[+-]\\d\\d:\\d\\d)\\z")
  }

  defp decode_temporal(tag, s) do
    parts = Regex.run(@temporal_res[tag], s, capture: :all_but_first)
    if parts == nil or match?(["-", "0000" | _], parts), do: temporal_bad!(tag, s, "not the text to_iso8601/1 writes")

    case {tag, parts} do
      {"$date", [sign, y, m, d]} -> date!(tag, s, sign, y, m, d)
      {"$time", [h, mi, sec | frac]} -> time!(tag, s, h, mi, sec, frac)
      {"$naive_datetime", [sign, y, m, d, h, mi, sec | frac]} ->
        NaiveDateTime.new!(date!(tag, s, sign, y, m, d), time!(tag, s, h, mi, sec, frac))

      {"$datetime", [sign, y, m, d, h, mi, sec, frac, zone]} ->
        wall = NaiveDateTime.new!(date!(tag, s, sign, y, m, d), time!(tag, s, h, mi, sec, [frac]))
        datetime!(tag, s, wall, zone)
    end
  end

  defp date!(tag, s, sign, y, m, d) do
    year = if sign == "-", do: -String.to_integer(y), else: String.to_integer(y)

    case Date.new(year, String.to_integer(m), String.to_integer(d)) do
      {:ok, date} -> date
      {:error, why} -> temporal_bad!(tag, s, why)
    end
  end

  defp time!(tag, s, h, mi, sec, frac) do
    micro =
      case frac do
        [f] when f != "" ->
          {String.to_integer(String.pad_trailing(f, 6, "0")), byte_size(f)}

        _ ->
          {0, 0}
      end

    case Time.new(String.to_integer(h), String.to_integer(mi), String.to_integer(sec), micro) do
      {:ok, time} -> time
      {:error, why} -> temporal_bad!(tag, s, why)
    end
  end

  defp datetime!(_tag, _s, wall, "Z"), do: DateTime.from_naive!(wall, "Etc/UTC")

  defp datetime!(tag, s, wall, <<sign, h::binary-2, ":", m::binary-2>> = zone) do
    {h, m} = {String.to_integer(h), String.to_integer(m)}
    if h > 23 or m > 59 or zone == "-00:00", do: temporal_bad!(tag, s, "offset beyond ±23:59")
    offset = if(sign == ?-, do: -1, else: 1) * (h * 3600 + m * 60)

    %{
      DateTime.from_naive!(wall, "Etc/UTC")
      | utc_offset: offset,
        std_offset: 0,
        time_zone: zone,
        zone_abbr: zone
    }
  end

  defp temporal_bad!(tag, s, why),
    do: bad!("bad #{tag} #{inspect(s)}: #{why} (TJ-6)")

  defp offset_text(seconds) do
    sign = if seconds < 0, do: "-", else: "+"
    minutes = div(abs(seconds), 60)
    sign <> pad2(div(minutes, 60)) <> ":" <> pad2(rem(minutes, 60))
  end

  defp pad2(n), do: n |> Integer.to_string() |> String.pad_leading(2, "0")

  # The structs of the boundary (spec/terms.md TJ-7, src/model/structs.rs);
  # any other module is declined, as the reference declines it.
  @boundary_structs [
    PtcRunner.Tool,
    MapSet,
    URI,
    PtcRunner.Lisp.Keyword,
    PtcRunner.Lisp.Env.Builtin,
    PtcRunner.Lisp.Runtime.Interop.Duration,
    PtcRunner.Lisp.Format.Fn,
    PtcRunner.Lisp.Format.Builtin,
    PtcRunner.Lisp.Format.Var,
    PtcRunner.Lisp.Format.SymbolRef,
    PtcRunner.Lisp.Format.RegexLiteral,
    PtcRunner.Step,
    PtcRunner.SubAgent.LLMTool,
    PtcRunner.SubAgent.SubAgentTool,
    PtcRunner.SubAgent.Definition
  ]

  # A $struct travels as written (spec/terms.md TJ-7): the fields it names
  # take the given values, the rest this build's own defaults
  # (`module.__struct__/0`). A field this build's struct lacks is declined,
  # naming the struct and the field, as the reference declines a field
  # v0.13.0's struct lacks.
  defp decode_struct(spec) do
    fields_in = object!(spec, "$struct", ["module", "fields"])
    module = module!(Map.get(fields_in, "module"))

    unless module in @boundary_structs and Code.ensure_loaded?(module) and
             function_exported?(module, :__struct__, 0),
           do: bad!("$struct module #{inspect(module)} is not a struct of the boundary")

    names =
      for {k, _} <- Map.from_struct(module.__struct__()), into: %{}, do: {Atom.to_string(k), k}

    given = object!(Map.get(fields_in, "fields", {:obj, []}), "$struct fields", nil)

    decoded =
      Map.new(given, fn {k, v} ->
        case Map.fetch(names, k) do
          {:ok, name} -> {name, decode(v)}
          :error -> bad!("#{inspect(module)} has no field #{inspect(k)}")
        end
      end)

    check_values!(module, decoded)
    struct(module, decoded)
  end

  # A URI holds binaries (or nil) and an integer port (or nil), as
  # URI.parse/1 and URI.new/1 make it; a MapSet's map is a map of members to
  # [], as MapSet.new/1 makes it (`:sets` raises FunctionClauseError on any
  # other). Anything else is no term of the boundary (TJ-7).
  defp check_values!(URI, decoded) do
    for {k, v} <- decoded, v != nil do
      ok = if k == :port, do: is_integer(v), else: is_binary(v)

      unless ok,
        do: bad!("URI field #{inspect(Atom.to_string(k))} must be #{if k == :port, do: "an integer or nil", else: "a binary or nil"}")
    end
  end

  defp check_values!(MapSet, %{map: map}) do
    unless is_map(map) and not is_struct(map) and Enum.all?(map, fn {_, v} -> v == [] end),
      do: bad!("MapSet field \"map\" must be a map of members to [] (as MapSet.new/1 makes it)")
  end

  defp check_values!(_module, _decoded), do: :ok

  defp module!(":" <> erlang_name), do: String.to_atom(erlang_name)
  defp module!(name) when is_binary(name) and name != "", do: Module.concat([name])
  defp module!(other), do: bad!("bad module name #{inspect(other)}")

  # Functions: {"arity": n, "returns": term}, {"arity": n, "raises": "msg"}
  # or {"name": "&Mod.fun/n"}. Funs made from a spec are remembered (process
  # dictionary, fun => spec) so that they encode back as the same spec.
  defp decode_fn(spec) do
    case object!(spec, "$fn", ["arity", "returns", "raises", "name"]) do
      %{"name" => name} = s when map_size(s) == 1 ->
        capture!(name)

      %{"arity" => arity, "returns" => raw} = s when map_size(s) == 2 ->
        value = decode(raw)

        remember(make_fun(arity, fn -> value end), %{"arity" => arity, "returns" => encode(value)})

      %{"arity" => arity, "raises" => msg} = s when map_size(s) == 2 and is_binary(msg) ->
        remember(make_fun(arity, fn -> raise msg end), %{"arity" => arity, "raises" => msg})

      s ->
        bad!("bad $fn spec with keys #{inspect(Map.keys(s))}")
    end
  end

  defp make_fun(0, body), do: fn -> body.() end
  defp make_fun(1, body), do: fn _ -> body.() end
  defp make_fun(2, body), do: fn _, _ -> body.() end
  defp make_fun(3, body), do: fn _, _, _ -> body.() end
  defp make_fun(4, body), do: fn _, _, _, _ -> body.() end

  # TJ-8: the other arities the BEAM can hold with the closure's one
  # captured value (arity + captured values <= 255, so at most 254), each
  # from a module compiled once (erl_eval's closures stop at 20 arguments).
  defp make_fun(arity, body) when is_integer(arity) and arity in 5..254 do
    mod = Module.concat(PtcConformanceAdapterFun, "Arity#{arity}")

    unless Code.ensure_loaded?(mod) do
      b = Macro.var(:body, nil)
      args = List.duplicate(Macro.var(:_, nil), arity)

      Module.create(
        mod,
        quote(do: def(make(unquote(b)), do: fn unquote_splicing(args) -> unquote(b).() end)),
        Macro.Env.location(__ENV__)
      )
    end

    mod.make(body)
  end

  defp make_fun(arity, _), do: bad!("unsupported $fn arity #{inspect(arity)}")

  defp remember(fun, spec) do
    Process.put({:fn_spec, fun}, spec)
    fun
  end

  defp capture!(name) do
    # TJ-8: M not empty, f without . or /, n from 0 to 255 without a
    # leading zero (the text is the term: &M.f/01 would come back &M.f/1).
    case Regex.run(~r<\A&(.+)\.([^./]+)/(0|[1-9][0-9]?[0-9]?)\z>s, to_string(name)) do
      [_, mod, fun, arity] when byte_size(arity) < 3 or arity <= "255" ->
        Function.capture(module!(mod), String.to_atom(fun), String.to_integer(arity))

      _ ->
        bad!("bad $fn name #{inspect(name)} (TJ-8)")
    end
  end

  # References, pids and ports: one real value per label, for the session.
  defp opaque(kind, label) do
    case Process.get({kind, label}) do
      nil ->
        value = new_opaque(kind)
        Process.put({kind, label}, value)
        Process.put({:label, value}, label)
        value

      value ->
        value
    end
  end

  defp new_opaque(:ref), do: make_ref()
  defp new_opaque(:pid), do: spawn(fn -> Process.sleep(:infinity) end)
  defp new_opaque(:port), do: Port.open({:spawn, "cat"}, [])

  defp label(value), do: Process.get({:label, value}) || inspect(value)

  # A JSON object (no duplicate keys, only `allowed` keys unless nil) as a
  # map of raw values.
  defp object!({:obj, pairs}, what, allowed) do
    keys = Enum.map(pairs, &elem(&1, 0))
    unique_keys!(keys)

    case keys -- (allowed || keys) do
      [] -> Map.new(pairs)
      extra -> bad!("#{what}: unexpected keys #{inspect(extra)}")
    end
  end

  defp object!(other, what, _), do: bad!("#{what}: expected an object, got #{inspect(other)}")

  defp unique_keys!(keys) do
    if length(Enum.uniq(keys)) != length(keys), do: bad!("duplicate key in #{inspect(keys)}")
  end


  defp bad!(message), do: throw({:bad_term, message})

  # TJ-1: String.to_atom/1 raises SystemLimitError past 255 characters.
  defp atom!(s) do
    if String.length(s) > 255,
      do: bad!("an atom has at most 255 characters, this name has #{String.length(s)} (TJ-1)"),
      else: String.to_atom(s)
  end

  @doc "How many JSON arrays and objects nest in a decoded JSON value, its own included (TJ-10)."
  def depth({:obj, pairs}), do: 1 + Enum.reduce(pairs, 0, fn {_, v}, m -> max(m, depth(v)) end)
  def depth(list) when is_list(list), do: 1 + Enum.reduce(list, 0, &max(depth(&1), &2))
  def depth(_), do: 0

  # ---- encoding --------------------------------------------------------

  def encode(x) when x in [nil, true, false], do: x
  def encode(a) when is_atom(a), do: %{"$atom" => Atom.to_string(a)}
  def encode(n) when is_integer(n) and abs(n) <= @max_plain_int, do: n
  def encode(n) when is_integer(n), do: %{"$int" => Integer.to_string(n)}
  def encode(f) when is_float(f), do: %{"$float" => f}

  def encode(b) when is_binary(b) do
    if String.valid?(b), do: b, else: %{"$bytes" => Base.encode64(b)}
  end

  def encode(list) when is_list(list) do
    if keyword?(list),
      do: %{"$kw" => Enum.map(list, fn {k, v} -> [Atom.to_string(k), encode(v)] end)},
      else: encode_list(list)
  end

  def encode(t) when is_tuple(t), do: %{"$tuple" => t |> Tuple.to_list() |> Enum.map(&encode/1)}
  def encode(%{calendar: Calendar.ISO, year: y} = t) when abs(y) > 999_999_999,
    do: throw({:unencodable, "a year beyond nine digits (spec/terms.md TJ-6): #{inspect(t)}"})

  def encode(%Date{} = d), do: %{"$date" => Date.to_iso8601(d)}
  def encode(%Time{} = t), do: %{"$time" => Time.to_iso8601(t)}
  def encode(%NaiveDateTime{} = n), do: %{"$naive_datetime" => NaiveDateTime.to_iso8601(n)}
  # TJ-6: a UTC DateTime, or one at a fixed offset of whole minutes below
  # 24 hours whose zone and abbreviation are the offset's text (TJ-11);
  # any other has no $datetime text that reads back as itself.
  def encode(%DateTime{} = dt) do
    utc? = dt.time_zone == "Etc/UTC" and dt.zone_abbr == "UTC" and dt.utc_offset == 0
    o = dt.utc_offset

    fixed? =
      dt.std_offset == 0 and rem(o, 60) == 0 and abs(o) < 86_400 and
        dt.time_zone == offset_text(o) and dt.zone_abbr == dt.time_zone

    if (utc? and dt.std_offset == 0) or fixed?,
      do: %{"$datetime" => DateTime.to_iso8601(dt)},
      else: throw({:unencodable, "no $datetime (spec/terms.md TJ-6) for #{inspect(dt)}"})
  end

  def encode(%module{} = s) do
    fields = for {k, v} <- Map.from_struct(s), do: {Atom.to_string(k), encode(v)}
    %{"$struct" => %{"module" => inspect(module), "fields" => {:object, Enum.sort(fields)}}}
  end

  def encode(m) when is_map(m) do
    pairs = Enum.sort(m, fn {a, _}, {b, _} -> key_cmp(a, b) != :gt end)

    if Enum.all?(Map.keys(m), &plain_key?/1),
      do: {:object, Enum.map(pairs, fn {k, v} -> {k, encode(v)} end)},
      else: %{"$map" => Enum.map(pairs, fn {k, v} -> [encode(k), encode(v)] end)}
  end

  def encode(f) when is_function(f), do: %{"$fn" => Process.get({:fn_spec, f}) || fn_name(f)}
  def encode(r) when is_reference(r), do: %{"$ref" => label(r)}
  def encode(p) when is_pid(p), do: %{"$pid" => label(p)}
  def encode(p) when is_port(p), do: %{"$port" => label(p)}
  def encode(other), do: throw({:unencodable, "no tagged JSON form for #{inspect(other)}"})

  # A non-empty proper list of {atom, _} pairs.
  defp keyword?([{k, _} | rest]) when is_atom(k), do: rest == [] or keyword?(rest)
  defp keyword?(_), do: false

  defp encode_list([]), do: []
  defp encode_list([h | t]), do: [encode(h) | encode_list(t)]
  defp encode_list(tail), do: throw({:unencodable, "improper list tail #{inspect(tail)}"})

  # Map key order (spec TJ-4): Erlang term order, except that integers sort
  # before floats, also inside tuples, lists and maps.
  defp key_cmp(a, b) when is_integer(a) and is_float(b), do: :lt
  defp key_cmp(a, b) when is_float(a) and is_integer(b), do: :gt

  defp key_cmp(a, b) when is_tuple(a) and is_tuple(b) and tuple_size(a) == tuple_size(b),
    do: key_cmp(Tuple.to_list(a), Tuple.to_list(b))

  defp key_cmp([a | as], [b | bs]) do
    with :eq <- key_cmp(a, b), do: key_cmp(as, bs)
  end

  defp key_cmp(a, b) when is_map(a) and is_map(b) and map_size(a) == map_size(b) do
    [ka, kb] = for m <- [a, b], do: Enum.sort(Map.keys(m), &(key_cmp(&1, &2) != :gt))
    with :eq <- key_cmp(ka, kb),
      do: key_cmp(Enum.map(ka, &Map.fetch!(a, &1)), Enum.map(kb, &Map.fetch!(b, &1)))
  end

  defp key_cmp(a, b) when a < b, do: :lt
  defp key_cmp(a, b) when a > b, do: :gt
  defp key_cmp(_, _), do: :eq

  # Writes encode/1's output as JSON text.
  def to_json(data), do: JSON.encode!(data, &json/2)

  defp json({:object, pairs}, enc) do
    members =
      Enum.map_intersperse(pairs, ",", fn {k, v} -> [JSON.encode!(k), ":", enc.(v, enc)] end)

    ["{", members, "}"]
  end

  defp json(other, enc), do: JSON.protocol_encode(other, enc)

  defp plain_key?(k), do: is_binary(k) and String.valid?(k) and not String.starts_with?(k, "$")

  defp fn_name(f) do
    case Function.info(f, :type) do
      {:type, :external} ->
        info = Function.info(f)
        %{"name" => "&#{inspect(info[:module])}.#{info[:name]}/#{info[:arity]}"}

      _ ->
        %{"name" => inspect(f)}
    end
  end
end

defmodule PtcAdapter.Ops do
  @moduledoc false

  @ops %{
    "key_normalizer.normalize_key" => {PtcRunner.SubAgent.KeyNormalizer, :normalize_key},
    "key_normalizer.normalize_keys" => {PtcRunner.SubAgent.KeyNormalizer, :normalize_keys},
    "key_normalizer.canonical_cache_key" =>
      {PtcRunner.SubAgent.KeyNormalizer, :canonical_cache_key},
    "lisp_formatter.format" => {PtcRunner.Lisp.Formatter, :format},
    "native_preview.cache_hint" => {PtcRunner.SubAgent.Loop.NativePreview, :cache_hint},
    "native_preview.build" => {PtcRunner.SubAgent.Loop.NativePreview, :build},
    "protocol.tool_description" => {PtcRunner.PtcToolProtocol, :tool_description},
    "protocol.render_error" => {PtcRunner.PtcToolProtocol, :render_error},
    "protocol.render_success" => {PtcRunner.PtcToolProtocol, :render_success},
    "protocol.render_success_from_step" => {PtcRunner.PtcToolProtocol, :render_success_from_step},
    "protocol.validate_program" => {PtcRunner.PtcToolProtocol, :validate_program},
    "protocol.to_json_value" => {PtcRunner.PtcToolProtocol, :to_json_value},
    "protocol.parse_signature" => {PtcRunner.PtcToolProtocol, :parse_signature},
    "protocol.atomize_value" => {PtcRunner.PtcToolProtocol, :atomize_value},
    "protocol.validate_return" => {PtcRunner.PtcToolProtocol, :validate_return},
    "exposure.effective_expose" => {PtcRunner.SubAgent.Exposure, :effective_expose},
    "exposure.filter_by_expose" => {PtcRunner.SubAgent.Exposure, :filter_by_expose},
    "tool.new" => {PtcRunner.Tool, :new},
    "tool.private?" => {PtcRunner.Tool, :private?},
    "tool.validate" => {__MODULE__, :tool_validate},
    "term.inspect" => {Kernel, :inspect}
  }

  # The PtcRunner function an op needs when the table names a helper here.
  @needs %{"tool.validate" => {PtcRunner.SubAgent.Validator, :validate!}}

  def table, do: @ops

  # The ops the loaded build can run: those whose function it exports (at
  # any arity), so the handshake of an older build does not claim an op it
  # lacks (v0.12.0 has no PtcRunner.Tool.private?/1).
  def names do
    ops = for {op, {module, fun}} <- @ops, exported?(Map.get(@needs, op, {module, fun})), do: op
    Enum.sort(ops)
  end

  defp exported?({module, fun}) do
    Code.ensure_loaded?(module) and Enum.any?(0..8, &function_exported?(module, fun, &1))
  end

  # The version of the PtcRunner build on the code path (its .app file).
  def ptc_version do
    Application.load(:ptc_runner)

    case Application.spec(:ptc_runner, :vsn) do
      nil -> "unknown"
      vsn -> to_string(vsn)
    end
  end

  # Validator.validate!/1 with a minimal agent around one tool: returns :ok
  # or raises. Besides the per-tool exposure checks, validate! also rejects
  # the reserved name "lisp_eval" and a :self tool without a signature.
  def tool_validate(name, format),
    do: PtcRunner.SubAgent.Validator.validate!(prompt: "p", tools: %{name => format})
end

defmodule PtcAdapter do
  @moduledoc false
  alias PtcAdapter.{Codec, Ops}

  @features ~w(atoms tuples floats bigints binaries term-keys structs temporal functions opaque)

  def main do
    # Protocol lines go through `:user` (the real stdin/stdout) as raw bytes.
    # Everything else that writes to "standard output" -- our group leader,
    # processes we start, the default logger handler -- goes to stderr.
    :ok = :io.setopts(:user, binary: true, encoding: :latin1)
    Process.group_leader(self(), Process.whereis(:standard_error))
    log_to_stderr()
    check_modules!()
    loop()
  end

  defp loop do
    case IO.binread(:user, :line) do
      :eof ->
        System.halt(0)

      {:error, why} ->
        IO.puts(:stderr, "adapter: stdin error #{inspect(why)}")
        System.halt(1)

      line ->
        {status, answer} = handle(line)
        IO.binwrite(:user, [Codec.to_json(answer), ?\n])
        if status == :bye, do: System.halt(0), else: loop()
    end
  end

  # One request line -> {:continue | :bye, answer map}.
  def handle(line) do
    case parse_json(String.trim(line)) do
      {:ok, {:obj, pairs}} ->
        request = Map.new(pairs)
        id = Map.get(request, "id")
        op = Map.get(request, "op")
        status = if op == "bye", do: :bye, else: :continue
        {status, Map.put(answer(op, Map.get(request, "args", [])), "id", id)}

      _ ->
        {:continue, %{"id" => nil, "unsupported" => "request line is not a JSON object"}}
    end
  end

  # Objects come out as {:obj, pairs} (in order, duplicates kept); a number
  # too large for a float as {:bad_float, text}, so the request keeps its id.
  def parse_json(text) do
    decoders = [
      object_finish: fn pairs, outer -> {{:obj, Enum.reverse(pairs)}, outer} end,
      float: fn digits ->
        try do
          String.to_float(digits)
        rescue
          ArgumentError -> {:bad_float, digits}
        end
      end
    ]

    case JSON.decode(text, :ok, decoders) do
      {value, :ok, ""} -> {:ok, value}
      _ -> :error
    end
  end

  # AP-18: the build says which release of the boundary it is, when it is
  # one of the three; the harness then judges it at that release.
  @releases ["0.11.0", "0.12.0", "0.13.0"]

  defp answer("hello", _args) do
    version = Ops.ptc_version()

    hello = %{
      "name" => "ptc_runner-elixir",
      "version" => version,
      "language" => "elixir",
      "protocol" => 1,
      "ops" => Ops.names(),
      "features" => @features,
      "extensions" => ["atoms", "compile", "reach"]
    }

    %{"ok" => if(version in @releases, do: Map.put(hello, "release", version), else: hello)}
  end

  defp answer("bye", _args), do: %{"ok" => nil}

  # AP-19: the names of the atoms the build's own code holds, sorted: the
  # literal atoms of every module of the :ptc_runner application (what its
  # instructions and literals name; function names, which func_info and
  # __info__/1 hold, left out). What two builds' lists differ by is where
  # `compare` looks for option names no word list of the kit holds.
  defp answer("atoms", []), do: %{"ok" => build_atoms()}
  defp answer("atoms", _args), do: %{"unsupported" => "atoms takes no arguments"}

  # AP-19 `reach`: which of the functions named (`Module.fun`, as `compare`
  # names the function a hunk of a diff lies in; a nested module's name may
  # be the last part of its full name) the answer to op on args called.
  # Counted with call-count tracing (:erlang.trace_pattern/3), which counts
  # calls in any process and needs no process flags; the clauses of the
  # function, its macro form and the funs defined inside it all count. The
  # patterns are set once for a list of names (setting one waits for every
  # scheduler, too slow per request); each answer reads the counters
  # before and after the call.
  defp answer("reach", [names, op, inner])
       when is_list(names) and is_binary(op) and is_list(inner) do
    if Enum.all?(names, &is_binary/1) do
      mfas = traced(Enum.uniq(names))
      before = Enum.map(mfas, fn {_, mfa} -> call_count(mfa) end)
      _ = answer(op, inner)

      reached =
        mfas
        |> Enum.zip(before)
        |> Enum.filter(fn {{_, mfa}, n} -> call_count(mfa) > n end)
        |> Enum.map(fn {{name, _}, _} -> name end)
        |> Enum.uniq()
        |> Enum.sort()

      %{"ok" => reached}
    else
      %{"unsupported" => "reach takes a list of function names, an op and its args"}
    end
  end

  defp answer("reach", _args),
    do: %{"unsupported" => "reach takes a list of function names, an op and its args"}

  # AP-19 `compile`: the variant of the sources whose files ROOT/PATHS are
  # (each changed or added beside the build this VM runs) compiled in
  # place, so that the next requests are answered by it. Each request
  # starts from the build: the modules an earlier one compiled go back to
  # the build's own code (or away, when the build has none). What a
  # build would do differently is refused, and the harness builds instead:
  # a file that is not lib/**/*.ex, a struct
  # whose fields or defaults changed or a module with macros (other
  # modules expand them when they compile, and are not recompiled here),
  # an implementation of a protocol consolidated without it. Files that do
  # not compile raise CompileError: the variant does not build.
  defp answer("compile", [root, paths]) when is_binary(root) and is_list(paths) do
    revert_in_place()

    cond do
      not Enum.all?(paths, &is_binary/1) ->
        %{"unsupported" => "compile takes a directory and a list of file paths"}

      bad = Enum.find(paths, &(not (String.starts_with?(&1, "lib/") and String.ends_with?(&1, ".ex")))) ->
        %{"unsupported" => "#{bad}: only lib/**/*.ex files are compiled in place"}

      true ->
        compile_in_place(root, paths)
    end
  end

  defp answer("compile", _args),
    do: %{"unsupported" => "compile takes a directory and a list of file paths"}

  defp answer(op, args) do
    with {:ok, {module, fun}} <- Map.fetch(Ops.table(), op),
         {:ok, terms} <- decode_args(args) do
      if function_exported?(module, fun, length(terms)),
        do: call(module, fun, terms),
        else: %{"unsupported" => "#{op}: no #{inspect(module)}.#{fun}/#{length(terms)}"}
    else
      :error -> %{"unsupported" => "unknown op #{inspect(op)}"}
      {:bad_args, why} -> %{"unsupported" => "cannot decode args: " <> why}
    end
  end

  defp decode_args(args) when is_list(args) do
    # TJ-10: the args array is the first of at most 120 nested containers.
    if Codec.depth(args) > 120,
      do: throw({:bad_args, "/args: nested deeper than 120 arrays and objects (TJ-10)"})

    {:ok, args |> Enum.with_index() |> Enum.map(&decode_arg/1)}
  catch
    {:bad_args, why} -> {:bad_args, why}
  end

  defp decode_args(_), do: {:bad_args, "args is not an array"}

  defp decode_arg({arg, index}) do
    Codec.decode(arg)
  rescue
    e -> throw({:bad_args, "/args/#{index}: " <> Exception.message(e)})
  catch
    {:bad_term, why} -> throw({:bad_args, "/args/#{index}: " <> why})
  end

  defp call(module, fun, terms) do
    result = apply(module, fun, terms)

    try do
      %{"ok" => Codec.encode(result)}
    catch
      {:unencodable, why} -> %{"unsupported" => "cannot encode result: " <> why}
    end
  rescue
    e -> raised(inspect(e.__struct__), safe_message(e))
  catch
    :throw, value -> raised("throw", inspect(value))
    :exit, value -> raised("exit", inspect(value))
  end

  defp compile_in_place(_root, []), do: %{"ok" => Ops.names()}

  defp compile_in_place(root, paths) do
    structs = Map.new(ptc_modules(), fn m -> {m, struct_of(m)} end)
    Code.put_compiler_option(:ignore_module_conflict, true)
    files = Enum.map(paths, &Path.join(root, &1))
    # The build's modules of the changed files are unloaded first: a file
    # that uses one at compile time (a struct, a macro, a function called
    # while compiling) then waits for the variant's, as a build would
    # compile it, instead of expanding the build's.
    # While the files compile, their directories are replaced on the code
    # path by shadows without those modules' beams (the rest of the
    # application, priv/ too, linked), so that the compiler cannot load
    # the build's again.
    stale = for m <- ptc_modules(), p <- paths, from_file?(m, p), uniq: true, do: m
    beams = for m <- stale, w = :code.which(m), is_list(w) and w != [], do: List.to_string(w)
    Enum.each(stale, fn m -> :code.purge(m); :code.delete(m); :code.purge(m) end)
    Process.put(:in_place_unloaded, stale)
    path = :code.get_path()
    shadow_root = Path.join(System.tmp_dir!(), "ptc-in-place-#{System.unique_integer([:positive])}")
    shadows = for dir <- Enum.uniq(Enum.map(beams, &Path.dirname/1)), do: {dir, shadow(dir, beams, shadow_root)}

    result =
      try do
        :code.set_path(Enum.map(path, fn d -> List.keyfind(shadows, List.to_string(d), 0, {nil, d}) |> elem(1) |> to_charlist() end))
        Kernel.ParallelCompiler.compile(files, return_diagnostics: true)
      rescue
        e -> {:error, [%{message: Exception.message(e)}], []}
      after
        :code.set_path(path)
        File.rm_rf(shadow_root)
      end

    case result do
      {:ok, modules, _diagnostics} ->
        Process.delete(:reach_traced)

        case Enum.find_value(modules, &in_place_refusal(&1, structs)) do
          nil ->
            %{"ok" => Ops.names()}

          why ->
            revert_in_place()
            %{"unsupported" => why}
        end

      {:error, errors, _diagnostics} ->
        revert_in_place()
        first = List.first(errors)
        why = if is_map(first), do: "#{Map.get(first, :file)}:#{inspect(Map.get(first, :position))}: #{first.message}", else: inspect(first)
        # The variant's own files do not compile: a build of it fails too.
        raised("CompileError", String.replace_invalid(why, "\uFFFD"))
    end
  end

  # A copy of the application directory holding ebin `dir`, made of links,
  # whose ebin lacks `beams`; its ebin's path.
  defp shadow(dir, beams, root) do
    app = Path.dirname(dir)
    copy = Path.join([root, Integer.to_string(:erlang.phash2(dir)), Path.basename(app)])
    File.mkdir_p!(Path.join(copy, "ebin"))

    for entry <- File.ls!(app), entry != "ebin" do
      File.ln_s!(Path.join(app, entry), Path.join(copy, entry))
    end

    for f <- File.ls!(dir), Path.join(dir, f) not in beams do
      File.ln_s!(Path.join(dir, f), Path.join([copy, "ebin", f]))
    end

    Path.join(copy, "ebin")
  end

  # Whether module m of the build was compiled from the file at the
  # relative path p (its recorded source ends with it).
  defp from_file?(m, p) do
    source = m.module_info(:compile) |> Keyword.get(:source, ~c"") |> List.to_string()
    String.ends_with?(source, "/" <> p)
  rescue
    _ -> false
  end

  defp struct_of(m) do
    if function_exported?(m, :__struct__, 0), do: m.__struct__(), else: nil
  end

  defp in_place_refusal(m, structs) do
    cond do
      Map.has_key?(structs, m) and struct_of(m) != structs[m] ->
        "#{inspect(m)}: its struct changed (modules that build it are not recompiled in place)"

      m.__info__(:macros) != [] ->
        "#{inspect(m)}: defines macros (modules that use them are not recompiled in place)"

      function_exported?(m, :__impl__, 1) and not impl_dispatched?(m) ->
        "#{inspect(m)}: implements #{inspect(m.__impl__(:protocol))}, consolidated without it"

      function_exported?(m, :__protocol__, 1) ->
        "#{inspect(m)}: a protocol (its consolidation is the build's)"

      true ->
        nil
    end
  end

  defp impl_dispatched?(m) do
    protocol = m.__impl__(:protocol)

    case protocol.__protocol__(:impls) do
      {:consolidated, fors} -> m.__impl__(:for) in fors
      :not_consolidated -> true
    end
  end

  # The modules compiled in place since the build's code was loaded (the
  # ones loaded from memory that were not so at the first compile request:
  # one that failed half-way included) go back to the build's code; one
  # the build lacks is deleted.
  defp revert_in_place do
    at_start =
      case Process.get(:in_memory_at_start) do
        nil -> tap(in_memory(), &Process.put(:in_memory_at_start, &1))
        set -> set
      end

    for m <- MapSet.difference(in_memory(), at_start) do
      :code.purge(m)
      :code.delete(m)
      :code.purge(m)
      _ = :code.load_file(m)
    end

    # Unloaded for the last request and not compiled again: back from the build.
    for m <- Process.get(:in_place_unloaded, []), not :erlang.module_loaded(m) do
      _ = :code.load_file(m)
    end

    Process.delete(:in_place_unloaded)

    Process.delete(:reach_traced)
  end

  defp in_memory do
    for {m, loc} <- :code.all_loaded(), not (is_list(loc) and loc != []), into: MapSet.new(), do: m
  end

  defp call_count(mfa) do
    case :erlang.trace_info(mfa, :call_count) do
      {:call_count, n} when is_integer(n) -> n
      _ -> 0
    end
  end

  # The {name, mfa} pairs of `names`, with call counting on for each mfa;
  # a new list of names turns the counting of the last one off.
  defp traced(names) do
    case Process.get(:reach_traced) do
      {^names, mfas} ->
        mfas

      previous ->
        with {_, old} <- previous,
             do: Enum.each(old, fn {_, mfa} -> :erlang.trace_pattern(mfa, false, [:call_count]) end)

        mfas = for name <- names, mfa <- traced_functions(name), do: {name, mfa}
        mfas |> Enum.map(&elem(&1, 1)) |> Enum.uniq() |> Enum.each(&:erlang.trace_pattern(&1, true, [:call_count]))
        Process.put(:reach_traced, {names, mfas})
        mfas
    end
  end

  # The functions a name stands for: each arity of `fun` in the modules
  # whose name is `Module` or ends with `.Module`, its macro form, and the
  # funs compiled from inside it (`-fun/arity-fun-N-`); a name that is a
  # module alone stands for all of that module's functions.
  defp traced_functions(name) do
    modules = ptc_modules()

    by_module = fn mod_name ->
      Enum.filter(modules, fn m ->
        full = inspect(m)
        full == mod_name or String.ends_with?(full, "." <> mod_name)
      end)
    end

    whole =
      for m <- by_module.(name), {f, a} <- m.module_info(:functions), do: {m, f, a}

    parts =
      case String.split(name, ".") do
        [_] ->
          for m <- modules, {f, a} <- m.module_info(:functions), named?(f, name), do: {m, f, a}

        segments ->
          {mod_parts, [fun]} = Enum.split(segments, -1)

          for m <- by_module.(Enum.join(mod_parts, ".")),
              {f, a} <- m.module_info(:functions),
              named?(f, fun),
              do: {m, f, a}
      end

    Enum.uniq(whole ++ parts)
  end

  defp named?(f, fun) do
    s = Atom.to_string(f)
    s == fun or s == "MACRO-" <> fun or String.starts_with?(s, "-" <> fun <> "/")
  end

  defp ptc_modules do
    case Process.get(:ptc_modules) do
      nil ->
        _ = Application.load(:ptc_runner)

        modules =
          case :application.get_key(:ptc_runner, :modules) do
            {:ok, ms} -> Enum.filter(ms, &match?({:module, _}, Code.ensure_loaded(&1)))
            _ -> []
          end

        Process.put(:ptc_modules, modules)
        modules

      ms ->
        ms
    end
  end

  defp build_atoms do
    _ = Application.load(:ptc_runner)
    {:ok, modules} = :application.get_key(:ptc_runner, :modules)

    modules
    |> Enum.flat_map(&module_atoms/1)
    |> Enum.map(&Atom.to_string/1)
    |> Enum.uniq()
    |> Enum.sort()
  end

  defp module_atoms(module) do
    with path when is_list(path) <- :code.which(module),
         {:beam_file, _, _, _, _, code} <- :beam_disasm.file(path) do
      Enum.flat_map(code, fn
        {:function, name, _, _, _} when name in [:__info__, :module_info] -> []
        {:function, _, _, _, instructions} -> operand_atoms(instructions, [])
      end)
    else
      _ -> []
    end
  end

  defp operand_atoms({:atom, atom}, acc) when is_atom(atom), do: [atom | acc]
  defp operand_atoms({:literal, term}, acc), do: literal_atoms(term, acc)
  defp operand_atoms({:func_info, _, _, _}, acc), do: acc
  defp operand_atoms({:extfunc, _, _, _}, acc), do: acc
  defp operand_atoms(t, acc) when is_tuple(t), do: operand_atoms(Tuple.to_list(t), acc)
  defp operand_atoms([h | t], acc), do: operand_atoms(t, operand_atoms(h, acc))
  defp operand_atoms(_, acc), do: acc

  defp literal_atoms(atom, acc) when is_atom(atom), do: [atom | acc]
  defp literal_atoms(t, acc) when is_tuple(t), do: literal_atoms(Tuple.to_list(t), acc)
  defp literal_atoms([h | t], acc), do: literal_atoms(t, literal_atoms(h, acc))
  defp literal_atoms(m, acc) when is_map(m), do: literal_atoms(Map.to_list(m), acc)
  defp literal_atoms(_, acc), do: acc

  defp raised(class, message), do: %{"raised" => %{"class" => class, "message" => message}}

  # Protocol v1 carries a message as a JSON string (spec/adapter_protocol.md
  # AP-4): a message that is not valid UTF-8 goes with each maximal invalid
  # subsequence replaced by U+FFFD, as the reference writes it.
  defp safe_message(e) do
    String.replace_invalid(Exception.message(e), "\uFFFD")
  end

  # PtcRunner must be on the code path; a module an older build lacks only
  # drops its ops from the handshake (Ops.names/0).
  defp check_modules! do
    unless Code.ensure_loaded?(PtcRunner.Tool) do
      IO.puts(:stderr, "adapter: PtcRunner is not on the code path (pass -pa)")
      System.halt(2)
    end
  end

  defp log_to_stderr do
    with {:ok, handler} <- :logger.get_handler_config(:default),
         :ok <- :logger.remove_handler(:default) do
      config = Map.put(handler.config, :type, :standard_error)
      :logger.add_handler(:default, handler.module, %{handler | config: config})
    end
  end
end

PtcAdapter.main()
