namespace Folio.Fuzz.Harnesses;

/// <summary>A parser accepted an input but what it produced breaks a promise its documentation makes.</summary>
public sealed class InvariantException(string message) : Exception(message)
{
    /// <summary>Throws when <paramref name="condition"/> does not hold.</summary>
    public static void Check(bool condition, string message)
    {
        if (!condition)
            throw new InvariantException(message);
    }
}
