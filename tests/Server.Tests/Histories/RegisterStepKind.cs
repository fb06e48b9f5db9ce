namespace Folio.Server.Tests.Histories;

/// <summary>What one step does to a register holding one value (values are small integers, -1 for "missing").</summary>
public enum RegisterStepKind
{
    /// <summary>Saw <see cref="RegisterStep.Value"/>.</summary>
    Read,

    /// <summary>Set <see cref="RegisterStep.Value"/> whatever the register held.</summary>
    Write,

    /// <summary>Set <see cref="RegisterStep.Value"/> because the register held <see cref="RegisterStep.Expected"/>.</summary>
    CompareAndSet,

    /// <summary>Changed nothing because the register did not hold <see cref="RegisterStep.Expected"/>.</summary>
    FailedCompareAndSet,
}
