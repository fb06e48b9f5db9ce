using Acornima;
using Jint;
using Jint.Native;
using Jint.Runtime;

namespace Folio.Indexing.Scripting;

/// <summary>
/// One JavaScript engine with Folio's limits, for one query, one patch or one batch of a set-based operation:
/// engines are not thread-safe, so each user owns one and runs it on one thread at a time. Scripts reach no
/// .NET type (the engine is created without CLR access); the only functions they get besides the language's
/// are the ones Folio hands them (<c>load</c>, <c>id</c>). Every <see cref="Call"/> starts its limits afresh
/// and turns every failure into a <see cref="ScriptException"/> at the client's position.
/// </summary>
public sealed class ScriptSandbox : IDisposable
{
    private readonly ScriptLimits _limits;
    private readonly CancellationToken _cancellation;
    private ScriptSource? _source;

    /// <summary>Creates an engine under <paramref name="limits"/>; <paramref name="cancellation"/> stops a running script.</summary>
    public ScriptSandbox(ScriptLimits limits, CancellationToken cancellation = default)
    {
        ArgumentNullException.ThrowIfNull(limits);
        _limits = limits;
        _cancellation = cancellation;
        Engine = new Engine(options =>
        {
            options.TimeoutInterval(limits.Timeout);
            options.MaxStatements(limits.MaxStatements);
            options.LimitMemory(limits.MaxMemoryBytes);
            options.LimitRecursion(limits.MaxRecursionDepth);
            options.Constraints.MaxArraySize = limits.MaxArraySize;
            if (cancellation.CanBeCanceled)
                options.CancellationToken(cancellation);
            options.Strict = false;
        });
    }

    /// <summary>The engine, for building values (objects, arrays) to pass to <see cref="Call"/>.</summary>
    public Engine Engine { get; }

    /// <summary>Runs <paramref name="source"/>'s top level (which declares the functions later calls name).</summary>
    public void Load(ScriptSource source)
    {
        ArgumentNullException.ThrowIfNull(source);
        var program = CompiledScriptCache.Get(source);
        _source = source;
        Engine.Constraints.Reset();
        try
        {
            Engine.Execute(program);
        }
        catch (Exception e) when (Translate(e) is { } failure)
        {
            throw failure;
        }
    }

    /// <summary>Makes <paramref name="value"/> a global (a query parameter <c>$name</c>, <c>args</c>, a helper function).</summary>
    public void SetGlobal(string name, JsValue value) => Engine.SetValue(name, value);

    /// <summary>Calls the global function <paramref name="function"/> with <paramref name="thisValue"/> and <paramref name="arguments"/>.</summary>
    public JsValue Call(string function, JsValue thisValue, params JsValue[] arguments) => Invoke(Engine.GetValue(function), thisValue, arguments);

    /// <summary>Calls <paramref name="callable"/> (a function the script handed over) with <paramref name="thisValue"/> and <paramref name="arguments"/>.</summary>
    public JsValue Invoke(JsValue callable, JsValue thisValue, params JsValue[] arguments)
    {
        Engine.Constraints.Reset();
        try
        {
            return Engine.Call(callable, thisValue, arguments);
        }
        catch (Exception e) when (Translate(e) is { } failure)
        {
            throw failure;
        }
    }

    /// <summary>
    /// Writes <paramref name="value"/> (what a call returned) as JSON within the same run's limits: its getters and
    /// proxy traps are the script's code and may loop, recurse or throw. Past <see cref="ScriptLimits.MaxMemoryBytes"/>
    /// bytes of JSON, or past <see cref="ScriptLimits.MaxArraySize"/> values, the result is refused.
    /// </summary>
    public void WriteJson(System.Text.Json.Utf8JsonWriter writer, JsValue value, int maxDepth = 64)
    {
        try
        {
            JsToJson.Write(writer, value, maxDepth, _limits.MaxMemoryBytes, _cancellation, _limits.MaxArraySize);
        }
        catch (Exception e) when (Translate(e) is { } failure)
        {
            throw failure;
        }
    }

    /// <summary>Runs <paramref name="work"/> on a value the script handed over, within the same run's limits (see <see cref="WriteJson"/>).</summary>
    public TResult Run<TState, TResult>(TState state, Func<TState, TResult> work)
    {
        ArgumentNullException.ThrowIfNull(work);
        try
        {
            return work(state);
        }
        catch (Exception e) when (Translate(e) is { } failure)
        {
            throw failure;
        }
    }

    /// <summary>What an engine failure means for the client, or null for a failure that is not the script's.</summary>
    private ScriptException? Translate(Exception exception)
    {
        switch (exception)
        {
            case JavaScriptException e:
                var position = Position(e.Location);
                return new ScriptException(Describe($"Script error: {e.Message}", position), ScriptFailure.Runtime, position?.Line, position?.Column, e);
            case TimeoutException:
                return new ScriptException($"The script ran longer than its limit of {_limits.Timeout.TotalMilliseconds:0} ms and was stopped.", ScriptFailure.Timeout, inner: exception);
            case StatementsCountOverflowException:
                return new ScriptException($"The script executed more than its limit of {_limits.MaxStatements} statements and was stopped.", ScriptFailure.Statements, inner: exception);
            case MemoryLimitExceededException or OutOfMemoryException:
                return new ScriptException($"The script allocated more than its limit of {_limits.MaxMemoryBytes / (1024 * 1024)} MB (or an array above {_limits.MaxArraySize} elements) and was stopped.", ScriptFailure.Memory, inner: exception);
            case RecursionDepthOverflowException or InsufficientExecutionStackException:
                return new ScriptException($"The script nested calls deeper than its limit of {_limits.MaxRecursionDepth} and was stopped.", ScriptFailure.Recursion, inner: exception);
            case ExecutionCanceledException or OperationCanceledException:
                return new ScriptException("The script was cancelled.", ScriptFailure.Canceled, inner: exception);
            case ScriptException:
                return null;
            case JintException e:
                return new ScriptException($"Script error: {e.Message}", ScriptFailure.Runtime, inner: e);
            default:
                return null;
        }
    }

    private (int Line, int Column)? Position(SourceLocation location) =>
        location.Start.Line <= 0 || _source is null ? null : _source.ClientPosition(location.Start.Line, location.Start.Column);

    /// <summary>A message with its place: "… (line 2, column 7)".</summary>
    internal static string Describe(string message, (int Line, int Column)? position) =>
        position is { } at ? $"{message} (line {at.Line}, column {at.Column})" : message;

    /// <summary>Releases the engine's state.</summary>
    public void Dispose() => Engine.Dispose();
}
