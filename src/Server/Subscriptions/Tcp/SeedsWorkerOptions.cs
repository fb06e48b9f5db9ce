using System.Globalization;
using System.Text.Json;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>How a worker of the seeds' clients opens a subscription when another worker holds it.</summary>
internal enum SeedsOpeningStrategy
{
    /// <summary>Refused (<c>InUse</c>) while another worker is connected.</summary>
    OpenIfFree,

    /// <summary>Ends the other worker's session and takes its place.</summary>
    TakeOver,

    /// <summary>Waits, sending heartbeats, until the other worker goes.</summary>
    WaitForFree,
}

/// <summary>
/// The options message a worker of the seeds' clients sends once the version is agreed:
/// <c>{"SubscriptionName","Strategy","MaxDocsPerBatch","TimeToWaitBeforeConnectionRetry",…}</c>.
/// </summary>
internal readonly record struct SeedsWorkerOptions(string SubscriptionName, SeedsOpeningStrategy Strategy, int MaxDocsPerBatch, TimeSpan RetryWait)
{
    /// <summary>Documents per batch when the worker names no number (the clients' own default).</summary>
    public const int DefaultBatchSize = 4096;

    /// <summary>Reads the options; <paramref name="problem"/> says what is wrong when it returns false.</summary>
    public static bool TryRead(JsonElement root, int maxBatchSize, out SeedsWorkerOptions options, out string? problem)
    {
        options = default;
        problem = null;
        if (root.ValueKind != JsonValueKind.Object
            || !root.TryGetProperty("SubscriptionName", out JsonElement name) || name.ValueKind != JsonValueKind.String || string.IsNullOrEmpty(name.GetString()))
        {
            problem = "The options must be an object with \"SubscriptionName\" as a non-empty string.";
            return false;
        }

        SeedsOpeningStrategy strategy = SeedsOpeningStrategy.OpenIfFree;
        if (root.TryGetProperty("Strategy", out JsonElement given) && given.ValueKind != JsonValueKind.Null)
        {
            if (given.ValueKind != JsonValueKind.String || !Enum.TryParse(given.GetString(), ignoreCase: false, out strategy) || !Enum.IsDefined(strategy))
            {
                problem = "\"Strategy\" must be \"OpenIfFree\", \"TakeOver\" or \"WaitForFree\" (one node serves one worker at a time: \"Concurrent\" is not offered).";
                return false;
            }
        }

        int batchSize = DefaultBatchSize;
        if (root.TryGetProperty("MaxDocsPerBatch", out JsonElement size) && size.ValueKind != JsonValueKind.Null)
        {
            if (size.ValueKind != JsonValueKind.Number || !size.TryGetInt32(out batchSize) || batchSize < 1)
            {
                problem = "\"MaxDocsPerBatch\" must be a whole number from 1.";
                return false;
            }
        }

        TimeSpan retry = TimeSpan.FromSeconds(5);
        if (root.TryGetProperty("TimeToWaitBeforeConnectionRetry", out JsonElement wait) && wait.ValueKind == JsonValueKind.String
            && !TimeSpan.TryParse(wait.GetString(), CultureInfo.InvariantCulture, out retry))
        {
            problem = "\"TimeToWaitBeforeConnectionRetry\" must be a time span (hh:mm:ss).";
            return false;
        }

        options = new SeedsWorkerOptions(name.GetString()!, strategy, Math.Min(batchSize, maxBatchSize), retry);
        return true;
    }
}
