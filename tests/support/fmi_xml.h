/*
 * fmi_xml.h — a small XML reader for the tests' FMI checker and importer
 * (fmi_check.h, fmi_import.h): elements with their attributes and parent,
 * in document order.  Enough for modelDescription.xml (declaration,
 * comments, elements, attributes, the five predefined entities); text
 * content is skipped.  Not a general XML parser.
 */
#ifndef FMI_XML_H
#define FMI_XML_H

#include <stddef.h>

#define FMI_XML_MAX_ATTR 24

typedef struct fmi_xml_elem {
    char *name;
    int parent;                      /* index, -1 for the root */
    int line;
    int n_attr;
    char *attr_name[FMI_XML_MAX_ATTR];
    char *attr_value[FMI_XML_MAX_ATTR];
} fmi_xml_elem;

typedef struct fmi_xml {
    int n;
    fmi_xml_elem *e;
} fmi_xml;

/* Parses text; 0 and *x filled, or -1 with "line N: ..." in err.  Call
 * fmi_xml_free in either case. */
int fmi_xml_parse(const char *text, fmi_xml *x, char *err, size_t errlen);
/* Reads and parses a file. */
int fmi_xml_read(const char *path, fmi_xml *x, char *err, size_t errlen);
void fmi_xml_free(fmi_xml *x);
/* The value of attribute `name` of element i, or NULL. */
const char *fmi_xml_attr(const fmi_xml *x, int i, const char *name);

#endif
