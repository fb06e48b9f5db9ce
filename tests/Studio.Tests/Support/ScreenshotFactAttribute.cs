namespace Folio.Studio.Tests.Support;

/// <summary>Runs only when FOLIO_STUDIO_SCREENSHOTS names a folder, and Chromium is there.</summary>
public sealed class ScreenshotFactAttribute : FactAttribute
{
    public ScreenshotFactAttribute()
    {
        if (Chromium.MissingReason is { } reason)
            Skip = reason;
        else if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable("FOLIO_STUDIO_SCREENSHOTS")))
            Skip = "Set FOLIO_STUDIO_SCREENSHOTS to a folder (docs/studio) to regenerate the studio's screenshots.";
    }
}
