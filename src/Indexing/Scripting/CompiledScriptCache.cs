using System.Collections.Concurrent;
using Acornima;
using Acornima.Ast;
using Jint;

namespace Folio.Indexing.Scripting;

/// <summary>
/// Parsed programs by their text: clients send the same few scripts (a projection, a patch) with different
/// parameters, and parsing is most of what a short script costs. A prepared program is immutable and shared
/// by every engine. Bounded: when full it starts over.
/// </summary>
public static class CompiledScriptCache
{
    /// <summary>How many distinct programs are kept.</summary>
    public const int Capacity = 512;

    private static readonly ConcurrentDictionary<string, Prepared<Script>> Programs = new(StringComparer.Ordinal);
    private static int _count;

    /// <summary>How many programs the cache parsed (a hit parses nothing); for tests and statistics.</summary>
    public static long Parses => Interlocked.Read(ref _parses);

    private static long _parses;

    /// <summary>The prepared program of <paramref name="source"/>; a syntax error becomes a <see cref="ScriptException"/> at the client's position.</summary>
    public static Prepared<Script> Get(ScriptSource source)
    {
        var text = source.Text;
        if (Programs.TryGetValue(text, out var prepared))
            return prepared;
        try
        {
            prepared = Engine.PrepareScript(text, strict: false);
        }
        catch (ScriptPreparationException e) when (e.InnerException is ParseErrorException parse)
        {
            throw SyntaxError(source, parse);
        }
        catch (ParseErrorException e)
        {
            throw SyntaxError(source, e);
        }
        Interlocked.Increment(ref _parses);
        if (Volatile.Read(ref _count) >= Capacity)
        {
            Programs.Clear();
            Volatile.Write(ref _count, 0);
        }
        if (Programs.TryAdd(text, prepared))
            Interlocked.Increment(ref _count);
        return prepared;
    }

    private static ScriptException SyntaxError(ScriptSource source, ParseErrorException e)
    {
        var position = source.ClientPosition(e.LineNumber, e.Column - 1);
        return new ScriptException(ScriptSandbox.Describe($"Script syntax error: {e.Description}", position), ScriptFailure.Syntax, position?.Line, position?.Column, e);
    }
}
