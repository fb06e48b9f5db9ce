using System.Text.Json;
using Folio.Indexing.Rql;
using Folio.Indexing.Scripting;
using Folio.Storage.Documents;
using Jint;
using Jint.Native;
using Jint.Runtime.Interop;

namespace Folio.Indexing.Patching;

/// <summary>
/// Applies a JavaScript patch to stored documents: a single document's <c>{"Script","Values"}</c> (the values are
/// the global <c>args</c>, as the seeds' patch requests name them) or a query's <c>update { … }</c> (its declared
/// functions, its alias and its <c>$parameters</c>). The script changes <c>this</c>, the document; what it leaves
/// there is the new document. One sandbox serves every document of a patch, one at a time, each call under the
/// limits afresh; a failure is a <see cref="ScriptException"/> naming the line and column the client wrote.
/// </summary>
public sealed class DocumentPatcher : IDisposable
{
    private const string PatchFunction = "__folio_patch";
    private const string Helpers =
        "function id(d) { return d && d['@metadata'] ? d['@metadata']['@id'] : null; }\n" +
        "function getMetadata(d) { return d ? d['@metadata'] : null; }\n";

    private readonly ScriptSandbox _sandbox;
    private readonly int _maxDepth;
    private readonly JsValue[] _arguments = new JsValue[1];
    private DocumentReader? _reader;

    private DocumentPatcher(ScriptSource source, ScriptLimits limits, int maxDepth, CancellationToken cancellation, Action<ScriptSandbox> globals)
    {
        _maxDepth = maxDepth;
        _sandbox = new ScriptSandbox(limits, cancellation);
        try
        {
            _sandbox.Load(source);
            globals(_sandbox);
            _sandbox.SetGlobal("load", new ClrFunction(_sandbox.Engine, "load", (_, args) => args.Length == 0 ? JsValue.Null : Load(args[0])));
        }
        catch
        {
            _sandbox.Dispose();
            throw;
        }
    }

    /// <summary>
    /// A patcher for a single document's <paramref name="script"/>, with <paramref name="values"/> (a JSON object, or
    /// null) as <c>args</c>. Throws <see cref="ScriptException"/> when the script does not parse.
    /// </summary>
    public static DocumentPatcher ForScript(string script, JsonElement? values, ScriptLimits limits, int maxDepth = 64, CancellationToken cancellation = default)
    {
        ArgumentNullException.ThrowIfNull(script);
        var source = new ScriptSource().Glue(Helpers).Glue($"function {PatchFunction}() {{\n");
        source.Client(script, 1, 1);
        source.Glue("}\n");
        return new DocumentPatcher(source, limits, maxDepth, cancellation, sandbox =>
        {
            var args = values is { ValueKind: JsonValueKind.Object } given ? JsonToJs.FromElement(sandbox.Engine, given) : new JsObject(sandbox.Engine);
            sandbox.SetGlobal("args", args);
        });
    }

    /// <summary>
    /// A patcher for <paramref name="query"/>'s <c>update { … }</c>, with the query's <paramref name="parameters"/> as
    /// <c>$name</c> globals. Throws <see cref="ScriptException"/> when the update or a declared function does not parse.
    /// </summary>
    public static DocumentPatcher ForQuery(RqlQuery query, JsonElement? parameters, ScriptLimits limits, int maxDepth = 64, CancellationToken cancellation = default)
    {
        ArgumentNullException.ThrowIfNull(query);
        var update = query.Update ?? throw new ArgumentException("The query has no update { … }.", nameof(query));
        var source = new ScriptSource().Glue(Helpers);
        foreach (var function in query.Functions)
            source.Client(function.Text, function.Line, function.Column);
        source.Glue($"function {PatchFunction}({query.Alias ?? "__folio_document"}) {{\n");
        source.Client(update.Text, update.Line, update.Column);
        source.Glue("}\n");
        return new DocumentPatcher(source, limits, maxDepth, cancellation, sandbox =>
        {
            if (parameters is { ValueKind: JsonValueKind.Object } given)
            {
                foreach (var parameter in given.EnumerateObject())
                    sandbox.SetGlobal("$" + parameter.Name, JsonToJs.FromElement(sandbox.Engine, parameter.Value));
            }
        });
    }

    /// <summary>
    /// The document <paramref name="json"/> after the patch, as UTF-8 JSON; <paramref name="reader"/> (the snapshot the
    /// document was read from) serves the script's <c>load(id)</c>.
    /// </summary>
    public byte[] Apply(ReadOnlySpan<byte> json, DocumentReader? reader = null)
    {
        _reader = reader;
        try
        {
            var document = JsonToJs.Read(_sandbox.Engine, json);
            if (document is not Jint.Native.Object.ObjectInstance)
                throw new ScriptException("The stored document is not a JSON object.", ScriptFailure.Result);
            _arguments[0] = document;
            _sandbox.Call(PatchFunction, document, _arguments);
            return _sandbox.Run((document, _maxDepth), static state => JsToJson.ToUtf8(state.document, state._maxDepth));
        }
        finally
        {
            _reader = null;
        }
    }

    private JsValue Load(JsValue idValue)
    {
        var reader = _reader;
        if (!idValue.IsString() || reader is null)
            return JsValue.Null;
        var id = idValue.ToString();
        return id.Length > 0 && reader.TryGet(id, out var loaded) ? JsonToJs.Read(_sandbox.Engine, loaded.Json) : JsValue.Null;
    }

    /// <summary>Releases the sandbox.</summary>
    public void Dispose() => _sandbox.Dispose();
}
