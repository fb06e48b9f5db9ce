namespace Folio.Server.Tests.Histories;

/// <summary>
/// One operation on one document, seen as a compare-and-set register: it took effect at one instant between
/// <see cref="Call"/> and <see cref="Return"/>. An optional step (its outcome unknown) may instead not have happened at all;
/// its <see cref="Return"/> is the latest moment it can have happened (<see cref="long.MaxValue"/> for no bound).
/// </summary>
/// <param name="Operation">The recorded operation it comes from.</param>
/// <param name="Kind">What it does.</param>
/// <param name="Value">The value read or written.</param>
/// <param name="Expected">The value a compare-and-set requires.</param>
/// <param name="Call">When it was invoked.</param>
/// <param name="Return">When it completed.</param>
/// <param name="Optional">Whether it may not have happened.</param>
public readonly record struct RegisterStep(HistoryOperation Operation, RegisterStepKind Kind, int Value, int Expected, long Call, long Return, bool Optional)
{
    /// <summary>Whether the step can happen when the register holds <paramref name="state"/>, and what it holds after.</summary>
    /// <param name="state">The value held before.</param>
    /// <param name="after">The value held after.</param>
    /// <returns>False when the step contradicts the state.</returns>
    public bool TryApply(int state, out int after)
    {
        after = state;
        switch (Kind)
        {
            case RegisterStepKind.Read:
                return state == Value;
            case RegisterStepKind.Write:
                after = Value;
                return true;
            case RegisterStepKind.CompareAndSet:
                if (state != Expected)
                    return false;
                after = Value;
                return true;
            default:
                return state != Expected;
        }
    }
}
