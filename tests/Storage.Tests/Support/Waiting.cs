namespace Folio.Storage.Tests.Support;

/// <summary>Waiting on a condition with a deadline, for what the storage engine does on its own threads (flushes, journal retirement).</summary>
internal static class Waiting
{
    /// <summary>Polls <paramref name="condition"/> until it holds; throws naming <paramref name="what"/> after 30 seconds.</summary>
    public static void Until(Func<bool> condition, string what)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
                throw new TimeoutException($"Timed out waiting until {what}.");
            Thread.Sleep(10);
        }
    }
}
