// fmu_description.cpp — see fmu_description.hpp.
#include "fmu_description.hpp"

#include <cstdio>
#include <set>
#include <vector>

extern "C" {
#include "rs_fmi2_vars.h"
#include "rs_results.h"
}

namespace railsym {

namespace {

std::string xml(const std::string &s)
{
    std::string o;
    for (char c : s) {
        switch (c) {
        case '&': o += "&amp;"; break;
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '"': o += "&quot;"; break;
        case '\'': o += "&apos;"; break;
        default: o += c;
        }
    }
    return o;
}

// Shortest text that reads back as the same double.
std::string num(double v)
{
    char b[40];
    for (int p = 15; p <= 17; p++) {
        std::snprintf(b, sizeof b, "%.*g", p, v);
        if (std::strtod(b, nullptr) == v) break;
    }
    return b;
}

std::string describe(const rs_model *m, const rs_fmi2_var &v, const std::string &name)
{
    switch (v.var.kind) {
    case RS_VAR_TIME: return "simulation time";
    case RS_VAR_P: return "parameter " + name + " of model " + m->name;
    case RS_VAR_U: return "input " + name + " (held over a communication step)";
    case RS_VAR_Q: return "coordinate " + name;
    case RS_VAR_QD: return "velocity of coordinate " + std::string(m->q_names[v.var.index]);
    case RS_VAR_LAMBDA:
        return "multiplier of constraint " + std::string(m->phi_names[v.var.index]) + " (its force or moment)";
    case RS_VAR_OUTPUT: return "output " + name + " of the description";
    case RS_VAR_CONTACT: return "wheel-rail contact force " + name + " (docs/scenario.md)";
    default: return name;
    }
}

const char *causality(int c)
{
    return c == RS_FMI2_INDEPENDENT ? "independent" : c == RS_FMI2_PARAMETER ? "parameter"
                                                    : c == RS_FMI2_INPUT     ? "input"
                                                                             : "output";
}

}  // namespace

std::string fmu_description(const rs_model *m, rs_ws *ws, const std::string &id, const std::string &guid,
                            const FmuExperiment &ex, bool can_save_state)
{
    const int elastic = rs_fmi2_elastic(ws);
    const int n = rs_fmi2_var_count(m, elastic);
    std::vector<std::string> names(n), units(n);
    std::vector<rs_fmi2_var> vars(n);
    std::set<std::string> unit_set;
    char buf[512];
    for (int i = 0; i < n; i++) {
        rs_fmi2_var_at(m, elastic, i, &vars[i]);
        rs_fmi2_var_name(m, &vars[i], buf, sizeof buf);
        names[i] = buf;
        const char *u = rs_results_unit(m, vars[i].var, buf, sizeof buf);
        units[i] = u ? u : "";
        if (!units[i].empty()) unit_set.insert(units[i]);
    }
    const char *yes = can_save_state ? "true" : "false";
    std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o += "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"" + xml(m->name) + "\" guid=\"" + xml(guid) +
         "\"\n    description=\"railsym model " + xml(m->name) +
         " (FMI 2.0 Co-Simulation; docs/fmi.md)\" generationTool=\"railsym export-fmu\"\n"
         "    variableNamingConvention=\"flat\" numberOfEventIndicators=\"0\">\n";
    o += "  <CoSimulation modelIdentifier=\"" + xml(id) +
         "\" needsExecutionTool=\"false\" canHandleVariableCommunicationStepSize=\"true\"\n"
         "      canInterpolateInputs=\"false\" maxOutputDerivativeOrder=\"0\" canRunAsynchronuously=\"false\"\n"
         "      canBeInstantiatedOnlyOncePerProcess=\"false\" canNotUseMemoryManagementFunctions=\"false\"\n"
         "      canGetAndSetFMUstate=\"" + yes + "\" canSerializeFMUstate=\"" + yes +
         "\" providesDirectionalDerivative=\"false\"/>\n";
    if (!unit_set.empty()) {
        o += "  <UnitDefinitions>\n";
        for (const auto &u : unit_set) o += "    <Unit name=\"" + xml(u) + "\"/>\n";
        o += "  </UnitDefinitions>\n";
    }
    o += "  <DefaultExperiment startTime=\"" + num(ex.start) + "\" stopTime=\"" + num(ex.stop) + "\" stepSize=\"" +
         num(ex.step) + "\"/>\n";
    o += "  <ModelVariables>\n";
    std::vector<int> outputs;
    for (int i = 0; i < n; i++) {
        const rs_fmi2_var &v = vars[i];
        o += "    <!-- index " + std::to_string(i + 1) + " -->\n";
        o += "    <ScalarVariable name=\"" + xml(names[i]) + "\" valueReference=\"" + std::to_string(i) +
             "\" causality=\"" + causality(v.causality) + "\"";
        std::string start;
        switch (v.causality) {
        case RS_FMI2_PARAMETER:
            o += " variability=\"tunable\" initial=\"exact\"";
            start = num(rs_ws_p(ws)[v.var.index]);
            break;
        case RS_FMI2_INPUT:
            o += " variability=\"continuous\"";
            start = num(rs_ws_u(ws)[v.var.index]);
            break;
        case RS_FMI2_OUTPUT:
            o += " variability=\"continuous\" initial=\"calculated\"";
            outputs.push_back(i + 1);
            break;
        default: o += " variability=\"continuous\"";
        }
        o += "\n        description=\"" + xml(describe(m, v, names[i])) + "\">\n      <Real";
        if (!units[i].empty()) o += " unit=\"" + xml(units[i]) + "\"";
        if (!start.empty()) o += " start=\"" + start + "\"";
        o += "/>\n    </ScalarVariable>\n";
    }
    o += "  </ModelVariables>\n  <ModelStructure>\n    <Outputs>\n";
    for (int k : outputs) o += "      <Unknown index=\"" + std::to_string(k) + "\"/>\n";
    o += "    </Outputs>\n    <InitialUnknowns>\n";
    for (int k : outputs) o += "      <Unknown index=\"" + std::to_string(k) + "\"/>\n";
    o += "    </InitialUnknowns>\n  </ModelStructure>\n</fmiModelDescription>\n";
    return o;
}

}  // namespace railsym
