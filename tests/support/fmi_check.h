/*
 * fmi_check.h — a checker of FMI 2.0 Co-Simulation modelDescription.xml
 * files, written for railsym's tests from the standard's text (section 2.2
 * "FMU Description Schema", 4.3.1 "CoSimulation"): required attributes,
 * unique names, aliases (one valueReference, at most one start), the legal
 * causality / variability / initial combinations and start values (section
 * 2.2.7's tables), units that exist in UnitDefinitions, ModelStructure's
 * Outputs and InitialUnknowns (2.2.8), and the modelIdentifier's binary;
 * docs/fmi.md names the section of each rule.  The corpus tests/fmi_errors/ (*.xml) holds one broken description
 * per rule.
 */
#ifndef FMI_CHECK_H
#define FMI_CHECK_H

#include <stddef.h>

/* Checks the description at `xml_path`; with fmu_dir (the unzipped FMU's
 * folder; NULL: skip) also that binaries/linux64/<modelIdentifier>.so is
 * there.  0 when it passes, else -1 with one message ("line N: ...") in err. */
int fmi_check_description(const char *xml_path, const char *fmu_dir, char *err, size_t errlen);

#endif
