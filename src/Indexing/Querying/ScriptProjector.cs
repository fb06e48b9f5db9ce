using System.Buffers;
using System.Text.Json;
using Folio.Indexing.Rql;
using Folio.Indexing.Scripting;
using Folio.Storage.Documents;
using Jint;
using Jint.Native;
using Jint.Runtime.Interop;

namespace Folio.Indexing.Querying;

/// <summary>
/// Runs a query's <c>select { … }</c> over its results: one sandbox per query run, the declared functions and the
/// projection compiled once (and cached by text across runs), each result converted from its stored bytes,
/// <c>load</c>ed documents read through the query's own read transaction and added to its includes.
/// </summary>
internal sealed class ScriptProjector : IDisposable
{
    private const string ProjectFunction = "__folio_project";
    private static readonly string IdHelper =
        "function id(d) { return d && d['@metadata'] ? d['@metadata']['@id'] : null; }\n" +
        "function getMetadata(d) { return d ? d['@metadata'] : null; }\n";

    private readonly RqlQuery _query;
    private readonly ScriptSandbox _sandbox;
    private readonly JsValue[] _arguments;
    // Reused for every result of the run: only the returned copy of the bytes is allocated per result.
    private readonly ArrayBufferWriter<byte> _buffer = new(256);
    private readonly Utf8JsonWriter _writer;
    private DocumentReader? _reader;
    private QueryResult? _result;

    private ScriptProjector(RqlQuery query, QueryOptions options, CancellationToken cancellation)
    {
        _query = query;
        _sandbox = new ScriptSandbox(Limits(options), cancellation);
        _arguments = new JsValue[1 + query.Loads.Count];
        _writer = new Utf8JsonWriter(_buffer, new JsonWriterOptions { SkipValidation = true });
        try
        {
            _sandbox.Load(Source(query));
            if (options.Parameters is { ValueKind: JsonValueKind.Object } parameters)
            {
                foreach (var parameter in parameters.EnumerateObject())
                    _sandbox.SetGlobal("$" + parameter.Name, JsonToJs.FromElement(_sandbox.Engine, parameter.Value));
            }
            _sandbox.SetGlobal("load", new ClrFunction(_sandbox.Engine, "load", (_, args) => args.Length == 0 ? JsValue.Null : Load(args[0])));
        }
        catch
        {
            _sandbox.Dispose();
            throw;
        }
    }

    /// <summary>
    /// The limits of one projection: the server's script limits, within the query's memory cap. Its time budget needs no
    /// limit here: the budget's cancellation stops the script, and the query answers that the budget ran out.
    /// </summary>
    internal static ScriptLimits Limits(QueryOptions options) =>
        options.MaxMemoryBytes is { } memory && memory < options.ScriptLimits.MaxMemoryBytes
            ? options.ScriptLimits with { MaxMemoryBytes = memory }
            : options.ScriptLimits;

    /// <summary>A projector for <paramref name="query"/>, or null when it has no JavaScript projection.</summary>
    public static ScriptProjector? Create(RqlQuery query, QueryOptions options, CancellationToken cancellation = default) =>
        query.ScriptProjection is null ? null : new ScriptProjector(query, options, cancellation);

    /// <summary>Checks that the query's JavaScript parses (a 400 before any work), without running it.</summary>
    public static void Validate(RqlQuery query)
    {
        if (query.ScriptProjection is not null)
            CompiledScriptCache.Get(Source(query));
    }

    /// <summary>The projection of one stored document (its bytes, valid while <paramref name="reader"/> is open).</summary>
    public byte[] Project(ReadOnlySpan<byte> json, string? id, DocumentReader reader, QueryResult result)
    {
        _reader = reader;
        _result = result;
        var engine = _sandbox.Engine;
        var document = JsonToJs.Read(engine, json);
        _arguments[0] = document;
        for (var i = 0; i < _query.Loads.Count; i++)
            _arguments[i + 1] = Load(PathValue(document, _query.Loads[i].Field));
        var projected = _sandbox.Call(ProjectFunction, document, _arguments);
        if (projected is Jint.Native.Object.ObjectInstance obj and not JsArray)
        {
            var metadata = new JsObject(engine);
            if (id is not null)
                metadata.Set("@id", new JsString(id));
            metadata.Set("@projection", JsBoolean.True);
            obj.Set("@metadata", metadata);
        }
        _buffer.ResetWrittenCount();
        _writer.Reset(_buffer);
        _sandbox.WriteJson(_writer, projected);
        _writer.Flush();
        return _buffer.WrittenSpan.ToArray();
    }

    private JsValue Load(JsValue idValue)
    {
        if (!idValue.IsString() || _reader is null)
            return JsValue.Null;
        var id = idValue.ToString();
        if (id.Length == 0 || !_reader.TryGet(id, out var loaded))
            return JsValue.Null;
        var json = loaded.Json;
        _result?.Includes.TryAdd(loaded.IdString, json.ToArray());
        return JsonToJs.Read(_sandbox.Engine, json);
    }

    /// <summary>The value at a load's path (plain property names; a step into an array takes its first element).</summary>
    private static JsValue PathValue(JsValue document, RqlField field)
    {
        var current = document;
        foreach (var segment in field.Path!.Segments)
        {
            if (current is not Jint.Native.Object.ObjectInstance obj)
                return JsValue.Null;
            current = obj.Get(segment.Name);
            if (segment.MarksArray && current is JsArray array)
                current = array.Length > 0 ? array.Get(0) : JsValue.Null;
        }
        return current;
    }

    private static ScriptSource Source(RqlQuery query)
    {
        var source = new ScriptSource().Glue(IdHelper).Glue(LoadedSelect.PathHelper);
        foreach (var function in query.Functions)
            source.Client(function.Text, function.Line, function.Column);
        var parameters = query.Alias ?? "__folio_document";
        foreach (var load in query.Loads)
            parameters += ", " + load.Alias;
        source.Glue($"function {ProjectFunction}({parameters}) {{\nreturn (");
        var projection = query.ScriptProjection!;
        source.Client(projection.Text, projection.Line, projection.Column);
        source.Glue(");\n}\n");
        return source;
    }

    public void Dispose()
    {
        _writer.Dispose();
        _sandbox.Dispose();
    }
}
