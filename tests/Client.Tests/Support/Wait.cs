namespace Folio.Client.Tests.Support;

public static class Wait
{
    public static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    /// <summary>Polls <paramref name="condition"/> until it holds; fails after <see cref="Timeout"/>.</summary>
    public static async Task UntilAsync(Func<Task<bool>> condition, string what)
    {
        DateTime deadline = DateTime.UtcNow + Timeout;
        while (!await condition())
        {
            if (DateTime.UtcNow > deadline)
                throw new TimeoutException("Timed out waiting for " + what);
            await Task.Delay(20);
        }
    }
}
