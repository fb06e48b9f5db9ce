namespace Folio.Studio.Tests.Support;

/// <summary>A fact that needs Chromium; skipped, saying why, where it is not installed.</summary>
public sealed class BrowserFactAttribute : FactAttribute
{
    public BrowserFactAttribute()
    {
        if (Chromium.MissingReason is { } reason)
            Skip = reason;
    }
}
